import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  poweredByHeader: false,
  // The pg driver and Prisma's generated client run on the Node runtime, unbundled.
  serverExternalPackages: ["pg", "@prisma/adapter-pg"],
};

export default nextConfig;
