"use client";

import { useEffect } from "react";

/**
 * With JavaScript, keeps the checkout form's contact and address fields on the server as they are
 * typed (POST /checkout/draft), so a reload fills them in again. Only `fields` are sent: never the
 * card number. Renders nothing; without JavaScript the form's "Save details for later" does it.
 */
export function DraftSaver({ formId, fields }: { formId: string; fields: string[] }) {
  useEffect(() => {
    const form = document.getElementById(formId);
    if (!(form instanceof HTMLFormElement)) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let sent = "";
    let submitted = false;
    const save = () => {
      clearTimeout(timer);
      if (submitted) return;
      const data = new FormData(form);
      const body = new URLSearchParams();
      for (const name of fields) {
        const value = data.get(name);
        if (typeof value === "string") body.set(name, value);
      }
      const text = body.toString();
      if (text === sent) return;
      sent = text;
      void fetch("/checkout/draft", { method: "POST", body, redirect: "manual", keepalive: true, credentials: "same-origin" }).catch(() => {
        sent = "";
      });
    };
    const later = (event: Event) => {
      if (!fields.includes((event.target as HTMLInputElement | null)?.name ?? "")) return;
      clearTimeout(timer);
      timer = setTimeout(save, 500);
    };
    const now = (event: Event) => {
      if (fields.includes((event.target as HTMLInputElement | null)?.name ?? "")) save();
    };
    // Placing the order clears the draft: nothing is saved once the form is on its way.
    const stop = () => {
      submitted = true;
      clearTimeout(timer);
    };
    form.addEventListener("input", later);
    form.addEventListener("change", now);
    form.addEventListener("submit", stop);
    return () => {
      clearTimeout(timer);
      form.removeEventListener("input", later);
      form.removeEventListener("change", now);
      form.removeEventListener("submit", stop);
    };
  }, [formId, fields]);
  return null;
}
