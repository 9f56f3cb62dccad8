/**
 * `npm run dev`: the API with --watch on 8081 and Vite with hot reload on
 * 8080 (proxying /api to the API), so the console is at http://localhost:8080.
 */
import { spawn } from 'node:child_process';
import { repoRoot } from './lib.ts';

const api = spawn(process.execPath, ['--watch', 'apps/api/src/server.ts'], {
  cwd: repoRoot,
  stdio: 'inherit',
  env: { PORT: '8081', PUBLIC_URL: 'http://localhost:8080', ...process.env },
});
const web = spawn('npx', ['vite', '--port', '8080', '--strictPort'], {
  cwd: `${repoRoot}/apps/web`,
  stdio: 'inherit',
});
const children = [api, web];
const shutdown = () => children.forEach((child) => child.kill('SIGTERM'));
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
for (const child of children) child.on('exit', shutdown);
