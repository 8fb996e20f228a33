// `npm test`: every project's suite in one run, sharing one NATS and one database bootstrap.
module.exports = {
  projects: ['<rootDir>/libs/*/jest.config.js', '<rootDir>/services/*/jest.config.js', '<rootDir>/tools/*/jest.config.js', '<rootDir>/apps/*/jest.config.js'],
  // Global options are not read from project configs.
  testTimeout: require('./jest.preset.js').testTimeout,
};
