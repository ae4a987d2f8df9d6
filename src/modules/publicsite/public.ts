/**
 * What other modules may use of the public website: its look (the organization's name, colours and logo) and its
 * page layout, so pages served elsewhere on the organization's address (the people's portal) read as part of the site.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Queryable } from '../../platform/db/db.ts';
import type { Organization } from '../../platform/tenancy.ts';
import { site, type Site } from './service.ts';
import { en } from './strings.en.ts';

/** The folder of the site's templates; `layout.eta` there wraps a page's `body` (see its fields: site, title, nav, ...). */
export const SITE_VIEWS = join(dirname(fileURLToPath(import.meta.url)), 'views');
/**
 * The site's stylesheet (views/site.css), which the layout links as `css`: the same for every organization and every
 * page, so a visitor's browser fetches it once and each page carries only its own markup and the organization's two
 * colours. Its address names its content (cached for a year; a new stylesheet is a new address).
 */
export const SITE_CSS = readFileSync(join(SITE_VIEWS, 'site.css'));
export const SITE_CSS_PATH = `/assets/site.css?v=${createHash('sha1').update(SITE_CSS).digest('base64url').slice(0, 12)}`;
/** The site's words, which the layout reads as `t`. */
export const siteStrings = en;
/** The organization and its site settings (colours, logo, donation link) the layout reads as `site`. */
export async function siteLook(q: Queryable, org: Organization): Promise<Site> {
  return site(q, org);
}
export type { Site };
