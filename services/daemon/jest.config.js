module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'daemon',
  rootDir: __dirname,
};
