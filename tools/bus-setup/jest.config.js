module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'bus-setup',
  rootDir: __dirname,
};
