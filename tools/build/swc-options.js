// One swc configuration for the runtime build and for jest, so tests run the code as it ships.
const path = require('node:path');
const { compilerOptions } = require('../../tsconfig.base.json');

const workspaceRoot = path.resolve(__dirname, '../..');

/** @param {{ rewritePaths: boolean }} options */
function swcOptions({ rewritePaths }) {
  return {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      target: 'es2022',
      keepClassNames: true,
      transform: { legacyDecorator: true, decoratorMetadata: true },
      ...(rewritePaths ? { baseUrl: workspaceRoot, paths: compilerOptions.paths } : {}),
    },
    module: { type: 'commonjs', strict: true },
    sourceMaps: true,
  };
}

/** Jest moduleNameMapper entries for the workspace path aliases. */
function jestModuleNameMapper() {
  const mapper = {};
  for (const [alias, [target]] of Object.entries(compilerOptions.paths)) {
    mapper[`^${alias.replace(/[/\\^$*+?.()|[\]{}-]/g, '\\$&')}$`] = path.join(workspaceRoot, target);
  }
  return mapper;
}

module.exports = { swcOptions, jestModuleNameMapper, workspaceRoot };
