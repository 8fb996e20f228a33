module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'browser-suite',
  rootDir: __dirname,
};
