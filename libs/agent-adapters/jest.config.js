module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'agent-adapters',
  rootDir: __dirname,
};
