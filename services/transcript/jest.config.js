module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'transcript',
  rootDir: __dirname,
};
