module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'yard-cli',
  rootDir: __dirname,
};
