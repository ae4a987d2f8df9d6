/**
 * The kernel's hook registry: how one module reacts to what another does, or supplies what another needs, without
 * importing upward and without import side effects.
 *
 * - A hook point (`hookPoint<F>(name)`) is declared by the module that raises the event, in its public.ts (animals:
 *   "an animal was written"). Modules that react register a handler on it; the raising module runs every handler.
 * - A slot (`slot<T>(name)`) is an interface a lower layer needs and a higher one implements: the kernel's sign-in
 *   needs someone to store sessions and key use (members and settings own those tables); animals need a place's name
 *   and a check that a place exists (operations owns places). One provider per slot.
 *
 * Registration is explicit: each module's `register(hooks)` (src/platform/context.ts, `Module`) says what it listens to
 * and provides, and the kernel calls it once per process for every module, in the order src/modules/index.ts lists
 * them, before any route or worker runs. The registry remembers which module registered what, so a statement built
 * from several modules' parts can name each part's module (see `partsOf`).
 */

/** An event a module raises; handlers of type F (a function, or an object of functions). */
export interface HookPoint<F> {
  readonly kind: 'hook';
  readonly name: string;
  /** Phantom: the handler type. */
  readonly _handler?: F;
}
/** An interface one module provides to others (or to the kernel). */
export interface Slot<T> {
  readonly kind: 'slot';
  readonly name: string;
  readonly _impl?: T;
}

export function hookPoint<F>(name: string): HookPoint<F> {
  return { kind: 'hook', name };
}
export function slot<T>(name: string): Slot<T> {
  return { kind: 'slot', name };
}

/** A registered handler and the module that registered it. */
export interface Handler<F> {
  module: string;
  fn: F;
}

const handlers = new Map<string, Handler<unknown>[]>();
const providers = new Map<string, { module: string; impl: unknown }>();

/** What a module's `register` gets: registration in its own name. */
export interface ModuleHooks {
  /** Runs `fn` whenever the point's module raises it (once per module and point: a second call replaces the first). */
  on<F>(point: HookPoint<F>, fn: F): void;
  /** Supplies the slot's implementation (a slot has one provider). */
  provide<T>(s: Slot<T>, impl: T): void;
}

export function hooksFor(module: string): ModuleHooks {
  return {
    on(point, fn) {
      const list = (handlers.get(point.name) ?? []).filter((h) => h.module !== module);
      list.push({ module, fn });
      handlers.set(point.name, list);
    },
    provide(s, impl) {
      const had = providers.get(s.name);
      if (had && had.module !== module) throw new Error(`${s.name} is already provided by ${had.module}; ${module} cannot provide it too`);
      providers.set(s.name, { module, impl });
    },
  };
}

/** The handlers registered on `point`, in registration order. */
export function handlersOf<F>(point: HookPoint<F>): readonly Handler<F>[] {
  return (handlers.get(point.name) ?? []) as Handler<F>[];
}

/** The slot's implementation; a missing one is a wiring bug (a module left out of src/modules/index.ts). */
export function use<T>(s: Slot<T>): T {
  const p = providers.get(s.name);
  if (!p) throw new Error(`nothing provides ${s.name}: is the module that implements it registered?`);
  return p.impl as T;
}
/** The slot's implementation, or undefined when no module provides it. */
export function maybeUse<T>(s: Slot<T>): T | undefined {
  return providers.get(s.name)?.impl as T | undefined;
}

/** Anything with a name and a `register` (a Module). */
export interface Registrant {
  name: string;
  register?(hooks: ModuleHooks): void;
}
const registered = new WeakSet<Registrant>();
/** Calls every module's `register` once per process, in order (the app, the CLI and the worker call this at start). */
export function registerModules(modules: readonly Registrant[]): void {
  for (const m of modules) {
    if (registered.has(m)) continue;
    registered.add(m);
    m.register?.(hooksFor(m.name));
  }
}

/**
 * A CTE name for a statement part a module contributed through a hook: `<module>__<n>`. The table-ownership check
 * (test/ownership.ts) reads what such a CTE touches as that module's statement, since its SQL is that module's.
 */
export function partName(module: string, n: number): string {
  return `${module}__${n}`;
}
