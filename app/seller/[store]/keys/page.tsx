import type { Metadata } from "next";
import Link from "next/link";
import { listApiKeys } from "@/lib/auth/api-keys";
import { SELLER_SCOPES } from "@/lib/auth/scopes";
import { withDb } from "@/lib/http/database";
import { decodeFlash } from "@/lib/http/flash";
import { FormState, Notice, When } from "@/app/_components/forms";
import { one, storeOfPage, type SearchParams } from "../../_lib/access";
import { KEY_NOTICES } from "../../_lib/notices";
import { SCOPE_DESCRIPTIONS } from "../../_lib/scopes";

export const metadata: Metadata = { title: "API keys" };

type Props = { params: Promise<{ store: string }>; searchParams: SearchParams };

export default async function ApiKeysPage({ params, searchParams }: Props) {
  const [{ store: slug }, sp] = await Promise.all([params, searchParams]);
  const { store } = await storeOfPage(slug, `/seller/${slug}/keys`);
  const keys = await withDb((client) => listApiKeys(client, store.id));
  const state = new FormState("key", decodeFlash(one(sp.flash)));
  const now = new Date();
  const chosen = state.active ? SELLER_SCOPES.filter((s) => state.flash!.values[`scope.${s}`] === "on") : [];
  return (
    <main className="page seller" data-page="seller-keys">
      <h1>API keys</h1>
      <Notice notices={KEY_NOTICES} notice={one(sp.notice)} />
      <p>
        Keys let your own software use the <Link href="/help/seller-api-keys">seller API</Link> for this store. A new key is shown once, when you create it;
        afterwards only its last four characters.
      </p>
      <section className="panel" aria-labelledby="create-key-heading">
        <h2 id="create-key-heading">Create an API key</h2>
        <form method="post" action={`/seller/${store.slug}/keys/create`} className="stacked-form" aria-labelledby="create-key-heading">
          {state.alert()}
          <label>
            Name
            <input {...state.field("name")} defaultValue={state.value("name")} required maxLength={100} placeholder="Inventory sync" autoComplete="off" />
          </label>
          <fieldset {...(state.active && state.flash!.field === "scopes" ? { "aria-invalid": true, "aria-describedby": state.errorId } : {})}>
            <legend>Scopes</legend>
            {SELLER_SCOPES.map((scope) => (
              <label key={scope} className="check">
                <input type="checkbox" name={`scope.${scope}`} defaultChecked={chosen.includes(scope)} /> <code>{scope}</code>
                <span className="muted"> {SCOPE_DESCRIPTIONS[scope]}</span>
              </label>
            ))}
          </fieldset>
          <label>
            Expires
            <select {...state.field("expires_in_days")} defaultValue={state.value("expires_in_days")}>
              <option value="">Never</option>
              <option value="30">In 30 days</option>
              <option value="90">In 90 days</option>
              <option value="365">In a year</option>
            </select>
          </label>
          <button type="submit">Create API key</button>
        </form>
      </section>
      <section aria-labelledby="keys-heading">
        <h2 id="keys-heading">Keys of this store</h2>
        {keys.length === 0 ? (
          <p data-empty="true">No keys yet.</p>
        ) : (
          <table className="stack-table keys-table" aria-label="API keys">
            <thead>
              <tr>
                <th scope="col">Key</th>
                <th scope="col">Name</th>
                <th scope="col">Scopes</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">Expires</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {keys.map((key) => (
                <tr key={key.id} data-key-id={key.keyId} data-revoked={key.revokedAt ? "true" : "false"}>
                  <td data-label="Key">
                    <code className="key-display">{key.display}</code>
                  </td>
                  <td data-label="Name">{key.name}</td>
                  <td data-label="Scopes">
                    {key.scopes.map((s) => (
                      <code key={s} className="scope">
                        {s}
                      </code>
                    ))}
                  </td>
                  <td data-label="Created">
                    <When at={key.createdAt} />
                  </td>
                  <td data-label="Last used">
                    <When at={key.lastUsedAt} />
                  </td>
                  <td data-label="Expires">{key.expiresAt ? <When at={key.expiresAt} /> : "Never"}</td>
                  <td data-label="Status">
                    {key.revokedAt ? (
                      <span>
                        Revoked <When at={key.revokedAt} />
                      </span>
                    ) : key.expiresAt && key.expiresAt <= now ? (
                      <span>Expired</span>
                    ) : (
                      <form method="post" action={`/seller/${store.slug}/keys/${key.keyId}/revoke`} className="inline-form">
                        <button type="submit" className="danger" aria-label={`Revoke ${key.name} (${key.display})`}>
                          Revoke
                        </button>
                      </form>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </main>
  );
}
