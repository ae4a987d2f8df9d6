import type { Db } from '../../platform/db/db.ts';
import { present } from '../../platform/db/db.ts';
import { notFound } from '../../platform/errors.ts';
import { audit } from '../../platform/audit.ts';
import { newId } from '../../platform/ids.ts';
import type { Static } from '../../platform/schema.ts';
import type { WishItemCreate, WishItemUpdate } from './schemas.ts';
import * as repo from './wishlist.repository.ts';

/** A wish-list item as the wire shows it: how many are still needed, and whether it is fully received. */
export function toWish(r: repo.WishRow) {
  const needed = Math.max(0, r.quantity_wanted - r.quantity_received);
  return { ...r, quantity_needed: needed, fully_received: needed === 0 };
}

export async function addWish(db: Db, orgId: string, actor: string, b: Static<typeof WishItemCreate>) {
  const row = await db.tx(async (q) => {
    const id = newId('wsh');
    await repo.insertWish(q, orgId, {
      id,
      name: b.name,
      description: b.description || null,
      quantity_wanted: b.quantity_wanted,
      priority: b.priority ?? 'medium',
      url: b.url || null,
    });
    await audit(q, orgId, actor, 'create', 'wish_item', id, { name: b.name });
    return present(await repo.wishById(q, orgId, id), 'wish item');
  });
  return toWish(row);
}

/** Only sent fields change; an empty description or url is stored as null. */
export function changeWish(db: Db, orgId: string, actor: string, id: string, b: Static<typeof WishItemUpdate>) {
  const patch: Record<string, unknown> = { ...b };
  if (b.description !== undefined) patch.description = b.description || null;
  if (b.url !== undefined) patch.url = b.url || null;
  return db.tx(async (q) => {
    const row = await repo.updateWish(q, orgId, id, patch);
    if (!row) throw notFound('wish-list item');
    await audit(q, orgId, actor, 'update', 'wish_item', id, Object.keys(b));
    return toWish(row);
  });
}

/** Adds `quantity` to quantity_received in one statement, so receipts recorded at the same time all count. */
export function receiveWish(db: Db, orgId: string, actor: string, id: string, quantity: number) {
  return db.tx(async (q) => {
    const row = await repo.receiveWish(q, orgId, id, quantity);
    if (!row) throw notFound('wish-list item');
    await audit(q, orgId, actor, 'receive', 'wish_item', id, { quantity });
    return toWish(row);
  });
}

export async function removeWish(db: Db, orgId: string, actor: string, id: string): Promise<void> {
  await db.tx(async (q) => {
    if (!(await repo.deleteWish(q, orgId, id))) throw notFound('wish-list item');
    await audit(q, orgId, actor, 'delete', 'wish_item', id);
  });
}
