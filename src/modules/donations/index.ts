import type { Module } from '../../platform/context.ts';
import { donationRoutesV1 } from './routes/v1-donations.ts';

export const donationsModule: Module = { name: 'donations', routes: donationRoutesV1 };
