import webVitals from "eslint-config-next/core-web-vitals";
import typescript from "eslint-config-next/typescript";

const config = [
  { ignores: ["lib/db/generated/**", ".next/**", "node_modules/**", "next-env.d.ts"] },
  ...webVitals,
  ...typescript,
];

export default config;
