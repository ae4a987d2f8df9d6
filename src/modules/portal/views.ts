import type { AppError } from '../../platform/errors.ts';
import type { Organization } from '../../platform/tenancy.ts';
import type { PersonSummary } from '../people/public.ts';
import type { OpenWindow, VolunteerQualifications } from '../shifts/public.ts';
import { clock, day, html, when, type Raw } from './html.ts';
import type { Caller } from './service.ts';
import type { FosterAnimal, fosterAnimalPage } from './foster.service.ts';

/** The portal's own styles, on top of the site's layout: forms sized for a thumb at 375 px first. */
export const CSS = `<style>
@media(max-width:480px){nav.main{margin-left:-8px}nav.main a{padding:10px 8px}}
.who{display:flex;flex-wrap:wrap;gap:8px;justify-content:flex-end;align-items:center;margin:0 0 8px;font-size:.9rem}
.who form{margin:0}.who button{font-weight:600;color:var(--p);cursor:pointer}
.stack{display:grid;gap:14px}@media(min-width:720px){.stack.two{grid-template-columns:minmax(0,1fr) minmax(0,1fr);align-items:start}}
label.f{display:flex;flex-direction:column;gap:4px;font-weight:600;font-size:.95rem;margin:0 0 10px}
label.f span.h{font-weight:400;color:var(--mute);font-size:.85rem}
input[type=email],input[type=password],input[type=text],input[type=number],textarea,input[type=file]{font:inherit;padding:10px;
border:1px solid #8d9aa2;border-radius:8px;background:#fff;color:var(--ink);min-height:44px;width:100%}
textarea{min-height:96px;resize:vertical}
.row{display:flex;gap:8px}.row>*{flex:1}
.ok{background:#e7f5ec;border:1px solid #9fd3b1;color:#14532d;border-radius:10px;padding:10px 14px;margin:0 0 14px}
.err{background:#fdecec;border:1px solid #f0a9a9;color:#7f1d1d;border-radius:10px;padding:10px 14px;margin:0 0 14px}
.muted{color:var(--mute)}
ul.items{list-style:none;padding:0;margin:0;display:grid;gap:8px}ul.items li{background:#fff;border:1px solid var(--line);
border-radius:10px;padding:10px 12px}
ul.items li .t{font-weight:700}
.shift{display:flex;justify-content:space-between;gap:10px;align-items:center;flex-wrap:wrap}
.shift form{margin:0}
.tag{display:inline-block;background:#e8f1f6;border-radius:99px;padding:1px 10px;font-size:.85rem;font-weight:600}
.box h2{margin:1.2em 0 .5em;font-size:1.15rem}.box h2:first-child{margin-top:0}
</style>`;

export const errorText = (err: AppError) => err.message;

/** The portal's pages a header link may name. */
export type PortalPage = 'sign-in' | 'home' | 'shifts' | 'adoptions' | 'gifts' | 'account';

/**
 * The header's links: the portal's own pages the person has (none but signing in without a session), then the
 * organization's public site.
 */
export function portalLinks(
  has: { shifts: boolean; adoptions: boolean; gifts: boolean } | null,
  current: PortalPage,
): { href: string; label: string; current: boolean }[] {
  const pages: [PortalPage, string, string, boolean][] = has
    ? [
        ['home', '/portal/', 'Home', true],
        ['shifts', '/portal/shifts', 'Shifts', has.shifts],
        ['adoptions', '/portal/adoptions', 'Adoptions', has.adoptions],
        ['gifts', '/portal/gifts', 'Gifts', has.gifts],
        ['account', '/portal/account', 'Account', true],
      ]
    : [['sign-in', '/portal/', 'Sign in', true]];
  return [
    ...pages.filter((p) => p[3]).map(([key, href, label]) => ({ href, label, current: key === current })),
    { href: '/', label: 'Website', current: false },
  ];
}

/** Who is signed in, and signing out: under the header on every page of a signed-in person. */
export function signedInBar(name: string): Raw {
  return html`<div class="who"><span class="muted">Signed in as ${name}</span>
<form method="post" action="/portal/sign-out"><button type="submit">Sign out</button></form></div>`;
}

export function message(title: string, text: string, extra?: Raw): Raw {
  return html`<div class="box"><h1>${title}</h1><p>${text}</p>${extra ?? ''}</div>`;
}

export function signIn(org: Organization, error: string | null, notice: string | null, email = '', welcome = ''): Raw {
  return html`<h1>${org.name} portal</h1>
<p class="muted">${welcome || 'For our fosters, volunteers, adopters and donors: see and update what you do with us.'}</p>
${error ? html`<p class="err" role="alert">${error}</p>` : ''}${notice ? html`<p class="ok">${notice}</p>` : ''}
<div class="stack two">
<form class="box" method="post" action="/portal/sign-in/link">
<h2>Email me a sign-in link</h2>
<label class="f">Email address<input type="email" name="email" autocomplete="email" required value="${email}"></label>
<button class="btn" type="submit">Send me a link</button>
</form>
<form class="box" method="post" action="/portal/sign-in/password">
<h2>Sign in with a password</h2>
<label class="f">Email address<input type="email" name="email" autocomplete="username" required value="${email}"></label>
<label class="f">Password<input type="password" name="password" autocomplete="current-password" required></label>
<button class="btn" type="submit">Sign in</button>
</form>
</div>`;
}

export function useLink(org: Organization, token: string): Raw {
  return html`<div class="box"><h1>Welcome to the ${org.name} portal</h1>
<p>This link signs you in once. You can set a password afterwards, under Account.</p>
<form method="post" action="/portal/link/${token}"><button class="btn" type="submit">Continue to the portal</button></form></div>`;
}

const DONE: Record<string, string> = {
  update: 'Thank you: your update is sent. Staff look at it before anything goes on the website.',
  weight: 'The weight is recorded.',
  medication: 'The medication is recorded.',
  request: 'Your request is sent to the staff.',
  booked: 'You are booked on the shift.',
  cancelled: 'Your booking is cancelled.',
  accepted: 'Thank you: the placement is accepted. The staff will arrange the handover.',
  declined: 'The placement is declined.',
  availability: 'Your availability is saved.',
  calendar: 'Your calendar address is ready: add it to your calendar app.',
};
const doneNotice = (done?: string) => (done && DONE[done] ? html`<p class="ok" role="status">${DONE[done]}</p>` : '');

const PLACEMENT: Record<string, string> = { pending: 'offered to you', accepted: 'accepted, not yet with you', active: 'in your care' };

export function home(p: {
  org: Organization;
  person: PersonSummary;
  animals: FosterAnimal[];
  donor: boolean;
  adopter: boolean;
  fosterHome: { status: string; capacity: number; spots_filled: number; species_preferences: string[] } | null;
  error?: string;
  shifts: { bookings: { id: string; schedule_name: string; starts_at: Date; ends_at: Date }[]; past_hours: number } | null;
  fostering: boolean;
  done?: string;
}): Raw {
  const zone = p.org.time_zone;
  return html`<h1>Hello, ${p.person.first_name || p.person.display_name}</h1>${doneNotice(p.done)}
${p.error ? html`<p class="err" role="alert">${p.error}</p>` : ''}
<div class="stack two">
${
  p.fostering
    ? html`<section class="box" aria-labelledby="h-foster"><h2 id="h-foster">Animals in your care</h2>
${
  p.animals.length
    ? html`<ul class="items">${p.animals.map(
        (a) =>
          html`<li>${
            a.placement === 'active'
              ? html`<a class="t" href="/portal/animals/${a.id}">${a.name}</a>`
              : html`<span class="t">${a.name}</span>`
          } <span class="muted">${a.species}</span><br><span class="tag">
${PLACEMENT[a.placement] ?? a.placement}</span>${a.since ? html` <span class="muted">since ${day(a.since)}</span>` : ''}
${a.placement === 'pending' ? offerForms(a) : ''}</li>`,
      )}</ul>`
    : html`<p class="muted">No animal is with you right now.</p>`
}
</section>
${p.fosterHome ? availabilityForm(p.fosterHome) : ''}`
    : ''
}
${
  p.shifts
    ? html`<section class="box" aria-labelledby="h-shifts"><h2 id="h-shifts">Your next shifts</h2>
${
  p.shifts.bookings.length
    ? html`<ul class="items">${p.shifts.bookings.slice(0, 5).map(
        (b) => html`<li><span class="t">${b.schedule_name}</span>
<br>${when(b.starts_at, zone)}–${clock(b.ends_at, zone)}</li>`,
      )}</ul>`
    : html`<p class="muted">No shift booked.</p>`
}
<p>${p.shifts.past_hours} hours volunteered so far. <a href="/portal/shifts">Book a shift</a></p></section>`
    : ''
}
${
  p.adopter
    ? html`<section class="box" aria-labelledby="h-adopt"><h2 id="h-adopt">Your adoptions</h2>
<p><a href="/portal/adoptions">Your applications and your animals' records</a></p></section>`
    : ''
}
${
  p.donor
    ? html`<section class="box" aria-labelledby="h-gifts"><h2 id="h-gifts">Your gifts</h2>
<p>Thank you for giving. <a href="/portal/gifts">Your gifts and year-end statements</a></p></section>`
    : ''
}
${
  !p.fostering && !p.shifts && !p.donor && !p.adopter
    ? html`<section class="box">
<p>There is nothing for you here yet: ${p.org.name} adds what you do with us as it happens.</p></section>`
    : ''
}
</div>`;
}

function offerForms(a: FosterAnimal): Raw {
  return html`<div class="row" style="margin-top:8px">
<form method="post" action="/portal/placements/${a.placement_id}/accept">
<button class="btn" type="submit" aria-label="Accept ${a.name}">Accept</button></form>
<form method="post" action="/portal/placements/${a.placement_id}/decline">
<button type="submit" aria-label="Decline ${a.name}">Decline</button></form>
</div>`;
}

function availabilityForm(h: { status: string; capacity: number; spots_filled: number; species_preferences: string[] }): Raw {
  return html`<form class="box" method="post" action="/portal/availability" aria-labelledby="h-avail">
<h2 id="h-avail">When you can take another animal</h2>
<p class="muted">${h.spots_filled} of ${h.capacity} places taken now.</p>
<label class="f">Right now<select name="status">
<option value="active"${h.status !== 'paused' ? ' selected' : ''}>I can take animals</option>
<option value="paused"${h.status === 'paused' ? ' selected' : ''}>Pause: not now</option></select></label>
<label class="f">How many animals at once<input type="number" name="capacity" min="0" max="50" required value="${h.capacity}"></label>
<label class="f">Species <span class="h">separated by commas; empty for any</span>
<input type="text" name="species" value="${h.species_preferences.join(', ')}"></label>
<button class="btn" type="submit">Save my availability</button>
</form>`;
}

const CATEGORY: Record<string, string> = {
  adoption_updates: 'News about adoptions',
  fundraising: 'Fundraising and appeals',
  volunteer_news: 'Volunteer news',
  foster_updates: 'Foster news',
  newsletter: 'The newsletter',
};

export function account(c: Caller, error: string | null, notice: string | null, prefs: { category: string; opted_out: boolean }[]): Raw {
  return html`<h1>Your account</h1>${
    error
      ? html`<p class="err" role="alert">${error}
</p>`
      : ''
  }${notice ? html`<p class="ok" role="status">${notice}</p>` : ''}
<div class="stack two">
<form class="box" method="post" action="/portal/account/password">
<h2>${c.hasPassword ? 'Change your password' : 'Set a password'}</h2>
<p class="muted">You sign in as ${c.email}. ${c.hasPassword ? '' : 'Without a password you sign in with emailed links.'}</p>
${
  c.hasPassword
    ? html`<label class="f">Current password
<input type="password" name="current_password" autocomplete="current-password" required></label>`
    : ''
}
<label class="f">New password <span class="h">at least 10 characters</span>
<input type="password" name="new_password" autocomplete="new-password" required minlength="10"></label>
<button class="btn" type="submit">Save the password</button>
</form>
<form class="box" method="post" action="/portal/account/preferences">
<h2>What we email you about</h2>
<p class="muted">Messages about what you do with us (your animals, bookings, applications) always come.</p>
<fieldset style="display:grid;gap:2px">
${prefs.map(
  (p) =>
    html`<label><input type="checkbox" name="${p.category}"${p.opted_out ? '' : html` checked`}>
${CATEGORY[p.category] ?? p.category}</label>`,
)}
</fieldset>
<button class="btn" type="submit">Save my choices</button>
</form>
</div>`;
}

const photoCount = (n: number) => (n === 0 ? 'no photo' : n === 1 ? '1 photo' : `${n} photos`);

type AnimalPage = Awaited<ReturnType<typeof fosterAnimalPage>>;
const UPDATE_STATE: Record<string, string> = { pending: 'waiting for staff', approved: 'approved', declined: 'kept internal' };

export function fosterAnimal(org: Organization, p: AnimalPage, notice: { error?: string; done?: string }): Raw {
  const a = p.animal;
  const base = `/portal/animals/${a.id}`;
  return html`<h1>${a.name}</h1><p class="muted">${a.species}${a.since ? html` · with you since ${day(a.since)}` : ''}</p>
${notice.error ? html`<p class="err" role="alert">${notice.error}</p>` : ''}${doneNotice(notice.done)}
<div class="stack two">
<section class="box" aria-labelledby="h-care"><h2 id="h-care">Care instructions</h2>
${p.care.plans.map(
  (pl) => html`<p>
<strong>${pl.food}</strong>: ${Number(pl.amount)} ${pl.unit},
${pl.times_per_day} times a day${pl.instructions ? html`. ${pl.instructions}` : ''}</p>`,
)}
${p.care.notes.map((n) => html`<p>${n.body}</p>`)}
${!p.care.plans.length && !p.care.notes.length ? html`<p class="muted">No instructions were shared yet: ask the staff.</p>` : ''}
<h2>Medical items due</h2>
${
  p.due.length
    ? html`<ul class="items">${p.due.map((d) => html`<li><span class="t">${d.name}</span><br>due ${day(d.due_on)}</li>`)}</ul>`
    : html`<p class="muted">Nothing due.</p>`
}
</section>
<form class="box" method="post" action="${base}/updates" enctype="multipart/form-data" aria-labelledby="h-update">
<h2 id="h-update">Post an update</h2>
<label class="f">How is ${a.name}?<textarea name="body" maxlength="5000"></textarea></label>
<label class="f">Photos <span class="h">up to 4; staff look at them before they go on the website</span>
<input type="file" name="photo" accept="image/*" multiple></label>
<button class="btn" type="submit">Send the update</button>
${
  p.updates.length
    ? html`<h2>Your updates</h2><ul class="items">${p.updates.map(
        (u) =>
          html`<li>${u.body || '(photos only)'}<br>
<span class="muted">${when(u.created_at, org.time_zone)} · ${photoCount(u.photo_ids.length)} · ${UPDATE_STATE[u.status] ?? u.status}
</span></li>`,
      )}</ul>`
    : ''
}
</form>
<form class="box" method="post" action="${base}/weights" aria-labelledby="h-weight">
<h2 id="h-weight">Record a weight</h2>
<div class="row"><label class="f">Weight<input type="text" inputmode="decimal" name="weight" required></label>
<label class="f">Unit<select name="unit"><option value="kg">kg</option><option value="lb">lb</option></select></label></div>
<button class="btn" type="submit">Record the weight</button>
</form>
<form class="box" method="post" action="${base}/medications" aria-labelledby="h-med">
<h2 id="h-med">Report a medication given</h2>
<label class="f">Medication<input type="text" name="name" maxlength="100" required></label>
<label class="f">Dose <span class="h">as on the label, e.g. 1 tablet</span><input type="text" name="dose" maxlength="100"></label>
<label class="f">Notes<input type="text" name="notes" maxlength="2000"></label>
<button class="btn" type="submit">Report it as given now</button>
</form>
<form class="box" method="post" action="${base}/requests" aria-labelledby="h-req">
<h2 id="h-req">Ask the staff</h2>
<label class="f">Kind of request<select name="kind"><option value="supplies">Supplies</option><option value="vet_visit">A vet visit</option>
</select></label>
<label class="f">What is needed<textarea name="details" maxlength="2000" required></textarea></label>
<button class="btn" type="submit">Send the request</button>
</form>
</div>`;
}

export function shifts(
  org: Organization,
  windows: OpenWindow[],
  mine: { bookings: { id: string; schedule_name: string; role_name: string | null; starts_at: Date; ends_at: Date }[]; past_hours: number },
  notice: { error?: string; done?: string },
  feed: string | null,
  quals: VolunteerQualifications = { held: [], next: [] },
): Raw {
  const zone = org.time_zone;
  const open = windows.filter((w) => !w.my_booking_id);
  return html`<h1>Shifts</h1>
${notice.error ? html`<p class="err" role="alert">${notice.error}</p>` : ''}${doneNotice(notice.done)}
<div class="stack two">
<section class="box" aria-labelledby="h-mine"><h2 id="h-mine">Your bookings</h2>
${
  mine.bookings.length
    ? html`<ul class="items">${mine.bookings.map(
        (b) =>
          html`<li class="shift"><span>
<span class="t">${b.schedule_name}</span>${b.role_name ? html` · ${b.role_name}` : ''}<br>
${when(b.starts_at, zone)}–${clock(b.ends_at, zone)}</span>
<form method="post" action="/portal/bookings/${b.id}/cancel">
<button type="submit" aria-label="Cancel ${b.schedule_name} on ${when(b.starts_at, zone)}">Cancel</button></form></li>`,
      )}</ul>`
    : html`<p class="muted">No shift booked.</p>`
}
<p>${mine.past_hours} hours volunteered so far.</p>
<h2>In your calendar</h2>
${
  feed
    ? html`<p>Subscribe to this address in your calendar app: your bookings show there and follow changes.</p>
<p style="overflow-wrap:anywhere"><a href="${feed}">${feed}</a></p>`
    : html`<form method="post" action="/portal/shifts/calendar"><p class="muted">Your bookings in your own calendar app.</p>
<button type="submit">Get my calendar address</button></form>`
}
</section>
<section class="box" aria-labelledby="h-open"><h2 id="h-open">Shifts you can book</h2>
<p class="muted">The next six weeks, for the roles you are qualified for.</p>
${
  open.length
    ? html`<ul class="items">${open.map((w) => {
        const left = w.capacity - w.booked;
        return html`<li class="shift"><span>
<span class="t">${w.schedule_name}</span>${w.role_name ? html` · ${w.role_name}` : ''}<br>
${when(w.starts_at, zone)}–${clock(w.ends_at, zone)} · ${left > 0 ? `${left} of ${w.capacity} places left` : 'full'}</span>
${
  left > 0
    ? html`<form method="post" action="/portal/shifts/${w.id}/book">
<button class="btn" type="submit" aria-label="Book ${w.schedule_name} on ${when(w.starts_at, zone)}">Book</button></form>`
    : ''
}</li>`;
      })}</ul>`
    : html`<p class="muted">No shift is open to you right now.</p>`
}
</section>
<section class="box" aria-labelledby="h-quals"><h2 id="h-quals">Your qualifications</h2>
${
  quals.held.length
    ? html`<ul class="items">${quals.held.map(
        (g) =>
          html`<li><span class="t">${g.name}</span><br><span class="muted">${
            g.current
              ? g.expires_on
                ? `Valid until ${day(g.expires_on)}`
                : `Since ${day(g.granted_on)}`
              : g.expires_on && g.expires_on < new Date().toISOString().slice(0, 10)
                ? `Expired on ${day(g.expires_on)}`
                : `From ${day(g.granted_on)}`
          }</span></li>`,
      )}</ul>`
    : html`<p class="muted">No qualification recorded yet.</p>`
}
<h2>For more roles</h2>
${
  quals.next.length
    ? html`<ul class="items">${quals.next.map(
        (r) => html`<li><span class="t">${r.role_name}</span><br><span class="muted">Needs ${r.missing.join(', ')}</span></li>`,
      )}</ul>
<p class="muted">Ask the volunteer coordinator how to get these.</p>`
    : html`<p class="muted">You are qualified for every role.</p>`
}
</section>
</div>`;
}
