import type { Db } from '../../platform/db/db.ts';
import { audit } from '../../platform/audit.ts';
import { invalid, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import * as repo from './repository.ts';
import * as targets from './syndication.repository.ts';
import { scheduleNext } from './schedule.ts';
import type { SiteSettingsPatchT, SyndicationCreateT, SyndicationPatchT } from './schemas.ts';

/** Saves the public site's look (colours stored lower case) with its audit row, in one transaction. */
export async function saveSiteSettings(db: Db, orgId: string, actor: string, patch: SiteSettingsPatchT): Promise<repo.SiteSettingsRow> {
  const b = { ...patch };
  if (b.primary_colour) b.primary_colour = b.primary_colour.toLowerCase();
  if (b.accent_colour) b.accent_colour = b.accent_colour.toLowerCase();
  return db.tx(async (q) => {
    const saved = await repo.saveSiteSettings(q, orgId, b);
    await audit(q, orgId, actor, 'update', 'public_site', orgId, Object.keys(b));
    return saved;
  });
}

const SFTP_SECURE = 'applies to ftp only: sftp is always encrypted';

/** A new syndication target (port 21, 22 for sftp, and folder / unless given), scheduled when enabled; `secure` with sftp is 422. */
export async function createTarget(db: Db, orgId: string, actor: string, b: SyndicationCreateT): Promise<targets.TargetRow> {
  const protocol = b.protocol ?? 'ftp';
  if (protocol === 'sftp' && b.secure) throw invalid({ secure: [SFTP_SECURE] });
  return db.tx(async (q) => {
    const t = await targets.insertTarget(q, orgId, newId('syn'), {
      format: b.format,
      protocol,
      host: b.host,
      port: b.port ?? (protocol === 'sftp' ? 22 : 21),
      username: b.username,
      password: b.password,
      secure: b.secure ?? false,
      remote_dir: b.remote_dir ?? '/',
      enabled: b.enabled ?? true,
    });
    await audit(q, orgId, actor, 'create', 'syndication_target', t.id, { format: t.format, host: t.host });
    if (t.enabled) await scheduleNext(q, orgId, t.id);
    return t;
  });
}

/** Changes a syndication target (404 when missing; `secure` with sftp is 422; moving to sftp turns `secure` off). */
export async function changeTarget(db: Db, orgId: string, actor: string, id: string, body: SyndicationPatchT): Promise<targets.TargetRow> {
  return db.tx(async (q) => {
    const cur = await targets.getTarget(q, orgId, id);
    if (!cur) throw notFound('syndication target');
    if ((body.protocol ?? cur.protocol) === 'sftp' && (body.secure ?? (body.protocol ? false : cur.secure)))
      throw invalid({ secure: [SFTP_SECURE] });
    const patch = body.protocol === 'sftp' ? { ...body, secure: false } : body;
    const t = await targets.updateTarget(q, orgId, id, patch);
    if (!t) throw notFound('syndication target');
    await audit(q, orgId, actor, 'update', 'syndication_target', t.id, Object.keys(body));
    if (t.enabled) await scheduleNext(q, orgId, t.id);
    return t;
  });
}

/** Removes a syndication target (404 when missing); nothing is removed from the listing site. */
export async function removeTarget(db: Db, orgId: string, actor: string, id: string): Promise<void> {
  await db.tx(async (q) => {
    if (!(await targets.deleteTarget(q, orgId, id))) throw notFound('syndication target');
    await audit(q, orgId, actor, 'delete', 'syndication_target', id, null);
  });
}
