"use client";

import { useEffect, useRef, useState, type ReactNode } from "react";

/**
 * A wide table that scrolls inside its own box instead of widening the page, with a cue while
 * columns are out of sight: a shade on the hidden side and a "scroll sideways" line (a phone shows
 * no scroll bar until one touches the table).
 */
export function TableScroll({ children, label, testId, className }: { children: ReactNode; label: string; testId?: string; className?: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const [more, setMore] = useState({ left: false, right: false });
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const update = () => {
      const left = el.scrollLeft > 1;
      const right = el.scrollLeft + el.clientWidth < el.scrollWidth - 1;
      setMore((m) => (m.left === left && m.right === right ? m : { left, right }));
    };
    // The observer calls back once on observe, so the first state is set there.
    const ro = new ResizeObserver(update);
    ro.observe(el);
    if (el.firstElementChild) ro.observe(el.firstElementChild);
    el.addEventListener("scroll", update, { passive: true });
    return () => {
      ro.disconnect();
      el.removeEventListener("scroll", update);
    };
  }, []);
  const overflowing = more.left || more.right;
  return (
    <>
      <div className="table-scroll" data-more-left={more.left ? "true" : undefined} data-more-right={more.right ? "true" : undefined}>
        {/* Focusable while it scrolls, so a keyboard can scroll it with the arrow keys. */}
        <div ref={ref} className={className ? `table-wrap ${className}` : "table-wrap"} data-testid={testId} role="region" aria-label={label} tabIndex={overflowing ? 0 : undefined}>
          {children}
        </div>
      </div>
      {overflowing ? (
        <p className="scroll-hint" data-testid="scroll-hint" aria-hidden="true">
          {more.right ? "Scroll sideways for more columns →" : "← More columns to the left"}
        </p>
      ) : null}
    </>
  );
}
