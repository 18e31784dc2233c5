/**
 * A focus trap for the phone drawer (README.md#the-page, WAI-ARIA APG "Dialog (Modal)"): while
 * open, focus moves into the container and Tab / Shift+Tab cycle inside it, so nothing behind
 * the backdrop takes focus; on close, focus goes back to the control that opened it.
 *
 * @module
 */
import type { RefObject } from "preact";
import { useEffect } from "preact/hooks";

const FOCUSABLE = [
  "a[href]",
  "button:not([disabled])",
  "input:not([disabled])",
  "select:not([disabled])",
  "textarea:not([disabled])",
  "[tabindex]:not([tabindex='-1'])",
].join(",");

/**
 * The focusable elements of a container that are rendered (not `display: none`), in tab order.
 *
 * @param root the container
 * @returns the elements
 */
export function focusables(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) =>
    el.getClientRects().length > 0
  );
}

/**
 * Traps focus in `container` while `open`, and returns it to `returnTo()` when `open` turns
 * false (only if focus was inside, so a click elsewhere keeps its own focus).
 *
 * @param open whether the drawer is open
 * @param container the drawer
 * @param returnTo the toggle that opened it
 */
export function useFocusTrap(
  open: boolean,
  container: RefObject<HTMLElement>,
  returnTo: () => HTMLElement | null,
): void {
  useEffect(() => {
    const root = container.current;
    if (!open || !root) return;
    const first = focusables(root)[0];
    (first ?? root).focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Tab") return;
      const all = focusables(root);
      if (all.length === 0) return;
      const head = all[0]!;
      const tail = all.at(-1)!;
      const active = document.activeElement;
      if (e.shiftKey && (active === head || !root.contains(active))) {
        e.preventDefault();
        tail.focus();
      } else if (!e.shiftKey && (active === tail || !root.contains(active))) {
        e.preventDefault();
        head.focus();
      }
    };
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("keydown", onKey);
      const active = document.activeElement;
      if (active === null || active === document.body || root.contains(active)) {
        returnTo()?.focus();
      }
    };
  }, [open]);
}
