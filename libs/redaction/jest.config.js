module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'redaction',
  rootDir: __dirname,
};
