import webVitals from "eslint-config-next/core-web-vitals";
import typescript from "eslint-config-next/typescript";

const config = [
  { ignores: ["lib/db/generated/**", ".next/**", "node_modules/**", "next-env.d.ts"] },
  ...webVitals,
  ...typescript,
  {
    // Contract tests walk parsed JSON bodies whose shape is what they assert.
    files: ["tests/**"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
];

export default config;
