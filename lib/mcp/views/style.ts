/** The views' styles: the storefront's tokens and card look (app/globals.css), trimmed to what the views use. */
export const VIEW_STYLE = `
:root{--ink:#1d2330;--muted:#5b6475;--line:#e2e5ec;--bg:#f6f7f9;--card:#fff;--brand:#1f5fbf;--accent:#0d7a4f;--sale:#b42318;--focus:#f59e0b;--radius:10px;
font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:var(--ink);background:var(--bg);line-height:1.5}
*{box-sizing:border-box}body{margin:0;padding:.75rem}main{overflow-wrap:anywhere}
h1{font-size:1.2rem;margin:.25rem 0 .5rem}h2{font-size:1rem;margin:0 0 .35rem}
.muted{color:var(--muted);font-size:.9rem}.price{font-weight:700;overflow-wrap:normal}s.muted{margin-left:.4rem}
button{padding:.45rem .9rem;border:0;border-radius:var(--radius);background:var(--brand);color:#fff;font:inherit;cursor:pointer}
button:disabled{opacity:.5;cursor:default}button.plain{background:none;color:var(--brand);padding:.25rem 0}
:focus-visible{outline:3px solid var(--focus);outline-offset:2px}a{color:var(--brand)}
.carousel{list-style:none;margin:0;padding:0 0 .5rem;display:grid;grid-auto-flow:column;grid-auto-columns:minmax(160px,190px);gap:.75rem;overflow-x:auto;scroll-snap-type:x mandatory}
.card{background:var(--card);border:1px solid var(--line);border-radius:var(--radius);padding:.6rem;display:flex;flex-direction:column;gap:.3rem;scroll-snap-align:start}
.card img,.noimg{width:100%;height:auto;aspect-ratio:1;object-fit:contain;background:var(--bg);border-radius:6px}
.card .title{font-size:.95rem}.card button{margin-top:auto}
.product{display:flex;gap:.75rem;align-items:flex-start}.product img,.product .noimg{width:96px;height:96px;object-fit:contain;flex:none}
.offers,.lines{list-style:none;margin:.5rem 0;padding:0}
.offer,.line{background:var(--card);border:1px solid var(--line);border-radius:var(--radius);padding:.6rem;margin-bottom:.5rem;display:flex;gap:.6rem;align-items:center;justify-content:space-between;flex-wrap:wrap}
.badge{margin-left:.4rem;background:var(--accent);color:#fff;border-radius:999px;padding:0 .5rem;font-size:.8rem}
.store{margin:.75rem 0}.qty{display:flex;align-items:center;gap:.35rem}.qty button{padding:.2rem .6rem}.qty output{min-width:1.5rem;text-align:center}
.sums{display:grid;grid-template-columns:1fr auto;gap:.2rem .75rem;margin:.5rem 0}.sums dd{margin:0;text-align:right}
.total{display:flex;justify-content:space-between}.limits{background:var(--card);border:1px solid var(--line);border-radius:var(--radius);padding:.5rem .75rem}
.status{min-height:1.2em;margin:.5rem 0 0}.status.bad{color:var(--sale)}
`;
