/** Absolute origin for every `url` the API returns, from PUBLIC_BASE_URL (no trailing slash). */
export function publicBaseUrl(): string {
  const configured = process.env.PUBLIC_BASE_URL?.trim();
  if (configured) return configured.replace(/\/+$/, "");
  return `http://localhost:${process.env.PORT ?? 3000}`;
}

export function absoluteUrl(pathOrUrl: string): string {
  return pathOrUrl.startsWith("/") ? `${publicBaseUrl()}${pathOrUrl}` : pathOrUrl;
}
