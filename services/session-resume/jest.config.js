module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'session-resume',
  rootDir: __dirname,
};
