/**
 * Ark's layering, checked by `npm run lint` (dependency-cruiser):
 * - the kernel (src/platform, src/app.ts, src/config.ts) imports no module (src/app.ts imports only the list of
 *   modules, src/modules/index.ts, to register them);
 * - a module imports another module only through its public.ts (src/modules/index.ts, the registration of every
 *   module, imports their index.ts);
 * - no import cycle runs through two modules.
 * docs/architecture.md explains the layers.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'kernel-imports-no-module',
      comment: 'The kernel (src/platform, src/app.ts, src/config.ts) knows no module: modules register with it (hooks, interfaces).',
      severity: 'error',
      from: { path: '^src/(platform/|config\\.ts$)' },
      to: { path: '^src/modules/' },
    },
    {
      name: 'kernel-imports-no-module-but-the-list',
      comment: 'src/app.ts may import the module list (src/modules/index.ts) and nothing else of the modules.',
      severity: 'error',
      from: { path: '^src/app\\.ts$' },
      to: { path: '^src/modules/', pathNot: '^src/modules/index\\.ts$' },
    },
    {
      name: 'module-through-public',
      comment: "A module uses another module only through that module's public.ts.",
      severity: 'error',
      from: { path: '^src/modules/([^/]+)/' },
      to: { path: '^src/modules/([^/]+)/', pathNot: ['^src/modules/$1/', '^src/modules/[^/]+/public\\.ts$'] },
    },
    {
      name: 'no-module-cycles',
      comment: 'No chain of imports leads from a module back to itself through another module.',
      severity: 'error',
      from: { path: '^src/modules/([^/]+)/' },
      to: { circular: true, viaSomeNot: '^src/modules/$1/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.test\\.ts$' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
