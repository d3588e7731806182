/** An error (role=alert) or a notice (role=status) chosen by a code from the query string. */
export function Message({ code, texts, kind }: { code: unknown; texts: Record<string, string>; kind: "error" | "notice" }) {
  if (typeof code !== "string" || !Object.hasOwn(texts, code)) return null;
  return kind === "error" ? (
    <p className="error" role="alert" data-error={code}>
      {texts[code]}
    </p>
  ) : (
    <p className="notice" role="status" data-notice={code}>
      {texts[code]}
    </p>
  );
}
