/**
 * ISO 3166-1 country codes and their English names (i18n-iso-countries). The package's Node entry loads all of its 80
 * languages' names at start-up; Ark shows country names in English only, so it loads that one.
 */
import { createRequire } from 'node:module';
import countries from 'i18n-iso-countries/index.js';

countries.registerLocale(createRequire(import.meta.url)('i18n-iso-countries/langs/en.json') as countries.LocaleData);

export default countries;
