#!/usr/bin/env node
// Runs the TypeScript CLI through tsx so `ark` works straight from a checkout or an npm install.
import { register } from 'tsx/esm/api';
register();
await import('../src/cli/main.ts');
