module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'local-stack',
  rootDir: __dirname,
};
