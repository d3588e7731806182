import { describe, expect, it } from "vitest";
import { productImagePath, productImageSvg, titleInitials, type ProductImageSubject } from "./product-image";

const subject: ProductImageSubject = {
  slug: "aurora-headphones-1",
  title: "Aurora Wireless Headphones",
  categorySlug: "headphones",
  categoryName: "Headphones",
  color: "Midnight Blue",
};

describe("generated product images", () => {
  it("live at /images/p/{slug}/{n}.svg", () => {
    expect(productImagePath("aurora-headphones-1", 2)).toBe("/images/p/aurora-headphones-1/2.svg");
  });

  it("are deterministic and differ by view, category and colour", () => {
    const one = productImageSvg(subject, 1);
    expect(productImageSvg({ ...subject }, 1)).toBe(one);
    expect(productImageSvg(subject, 2)).not.toBe(one);
    expect(productImageSvg(subject, 3)).not.toBe(one);
    expect(productImageSvg({ ...subject, categorySlug: "ssds", categoryName: "SSDs" }, 1)).not.toBe(one);
    expect(productImageSvg({ ...subject, color: "Red" }, 1)).not.toBe(one);
  });

  it("use the title's initials", () => {
    expect(titleInitials("Aurora Wireless Headphones")).toBe("AW");
    expect(titleInitials("éclair: 12 recipes")).toBe("É1");
    expect(titleInitials("")).toBe("");
  });

  it("escape every text and carry no script or external reference", () => {
    const svg = productImageSvg(
      { ...subject, title: `<script>alert("x")</script> & 'more'`, categoryName: "<b>Tools & Co</b>", color: `"><script>` },
      1,
    );
    expect(svg).not.toMatch(/<script/i);
    expect(svg).not.toMatch(/\son\w+=/i);
    expect(svg).not.toMatch(/href=/i);
    expect(svg).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &apos;more&apos;");
    expect(svg).toContain("&lt;b&gt;Tools &amp; Co&lt;/b&gt;");
    expect(svg.startsWith("<svg ")).toBe(true);
  });
});
