/**
 * A stack of async-disposable owners, disposed latest first, every failure kept. Private to
 * `@chime/agent`; shared by the agent and plugin scopes.
 *
 * @module
 */

/** Owners disposed in reverse order of adoption. */
export class OwnerStack {
  readonly #owners: AsyncDisposable[] = [];

  /** Adopts `owner`; the returned handle releases it without disposing it. */
  adopt(owner: AsyncDisposable): Disposable {
    this.#owners.push(owner);
    return {
      [Symbol.dispose]: () => {
        const index = this.#owners.lastIndexOf(owner);
        if (index >= 0) this.#owners.splice(index, 1);
      },
    };
  }

  /**
   * Disposes and awaits every owner, latest first, even when some fail.
   *
   * @throws the single failure, or an `AggregateError` of several
   */
  async disposeAll(what: string): Promise<void> {
    const errors: unknown[] = [];
    for (let owner = this.#owners.pop(); owner !== undefined; owner = this.#owners.pop()) {
      try {
        await owner[Symbol.asyncDispose]();
      } catch (error) {
        errors.push(error);
      }
    }
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) {
      throw new AggregateError(errors, `Cannot dispose ${what}: owners failed`);
    }
  }
}
