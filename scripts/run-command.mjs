// npm run db:migrate | db:rollback | db:seed | keys | ledger:check | events:purge: the command's TypeScript
// source through tsx when tsx is installed (a development checkout), the compiled dist/src/cli/<name>.js
// otherwise (a production install: npm ci --omit=dev after npm run build). Plain JavaScript: it runs
// before any compiler is known to exist (docs/decisions.md 27).
// usage: node scripts/run-command.mjs <command> [its arguments]
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const [name] = process.argv.splice(2, 1); // the command's own arguments start at argv[2] again
if (!name || !/^[a-z-]+$/.test(name)) {
  process.stderr.write('usage: node scripts/run-command.mjs <command> [arguments]\n');
  process.exit(2);
}

let tsx;
try {
  tsx = import.meta.resolve('tsx/esm/api');
} catch {
  tsx = undefined; // not installed: a production install
}
const source = `${ROOT}src/cli/${name}.ts`;
const compiled = `${ROOT}dist/src/cli/${name}.js`;
if (tsx && existsSync(source)) {
  const { register } = await import(tsx);
  register();
  await import(pathToFileURL(source).href);
} else if (existsSync(compiled)) {
  await import(pathToFileURL(compiled).href);
} else {
  process.stderr.write(`command error: ${compiled} is missing and tsx is not installed; run npm run build first\n`);
  process.exit(1);
}
