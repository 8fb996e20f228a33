// `npm test`: every project's suite in one run, sharing one NATS and one database bootstrap.
module.exports = {
  projects: ['<rootDir>/libs/*/jest.config.js', '<rootDir>/services/*/jest.config.js', '<rootDir>/tools/*/jest.config.js', '<rootDir>/apps/*/jest.config.js'],
  // Global options are not read from project configs.
  testTimeout: require('./jest.preset.js').testTimeout,
  // Jest's default on two cores is one worker, and most files spend their time waiting on agent
  // CLIs, services, NATS and timers: two keep both cores busy (CI runs on two). Every file has its
  // own database and NATS namespace, so files may run side by side. More was not tried.
  maxWorkers: 2,
};
