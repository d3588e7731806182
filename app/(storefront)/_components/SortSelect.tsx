"use client";

import type { ReactNode } from "react";

/**
 * The sort <select>: with JavaScript a choice submits its GET form at once; without, the form's
 * own button does (the markup is the same either way).
 */
export function SortSelect({ defaultValue, children }: { defaultValue: string; children: ReactNode }) {
  return (
    <select id="sort" name="sort" defaultValue={defaultValue} onChange={(e) => e.currentTarget.form?.requestSubmit()}>
      {children}
    </select>
  );
}
