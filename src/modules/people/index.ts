import type { Module } from '../../platform/context.ts';
import { peopleRoutesV1 } from './routes.v1.ts';

export const peopleModule: Module = { name: 'people', routes: peopleRoutesV1 };
