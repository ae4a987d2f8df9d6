import { Eta } from 'eta';
import type { SitePage } from '../../platform/site-page.ts';
import { SITE_CSS_PATH, SITE_VIEWS } from './public.ts';
import { site } from './service.ts';
import { en } from './strings.en.ts';

const layout = new Eta({ views: SITE_VIEWS, autoEscape: true, autoTrim: false, cache: true });

/** A page of another area (a form, the signing page) in the site's layout: its header, colours, footer and stylesheet. */
export const renderSitePage: SitePage = async (q, org, page) =>
  layout.renderAsync('layout', {
    t: en,
    css: SITE_CSS_PATH,
    site: await site(q, org),
    title: `${page.title} · ${org.name}`,
    description: page.description,
    canonical: page.canonical,
    nav: '',
    body: page.body,
  });
