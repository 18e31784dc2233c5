/**
 * Makes a file or directory read-only for the current process, undone on dispose. A non-root
 * user gets plain mode bits; root ignores those, so for root the path is made immutable
 * (`chattr +i`, which binds root too).
 *
 * @module
 */

async function chattr(flag: "+i" | "-i", path: string): Promise<boolean> {
  try {
    const { success } = await new Deno.Command("chattr", { args: [flag, path], stderr: "null" })
      .output();
    return success;
  } catch {
    return false; // no chattr on this machine
  }
}

/**
 * Makes `path` read-only.
 *
 * @returns a handle that restores it, or `undefined` when this machine offers no way
 */
export async function readOnly(path: string): Promise<AsyncDisposable | undefined> {
  if (Deno.uid() !== 0) {
    const { mode, isDirectory } = await Deno.stat(path);
    await Deno.chmod(path, isDirectory ? 0o555 : 0o444);
    return { [Symbol.asyncDispose]: () => Deno.chmod(path, mode! & 0o7777) };
  }
  if (!await chattr("+i", path)) return undefined;
  let undone = false;
  return {
    [Symbol.asyncDispose]: async () => {
      if (undone) return;
      undone = true;
      await chattr("-i", path);
    },
  };
}
