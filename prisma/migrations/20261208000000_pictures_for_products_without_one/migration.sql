-- Products made before every new product got a picture (lib/seller/listings/create-listing.ts)
-- may have none, and their cards show an empty box. Each gets its generated picture, the one
-- a new product without an upload gets: /images/p/{slug}/1.svg (lib/catalog/product-image.ts).
INSERT INTO product_images (product_id, url, position)
SELECT p.id, '/images/p/' || p.slug || '/1.svg', 0
FROM products p
WHERE NOT EXISTS (SELECT 1 FROM product_images i WHERE i.product_id = p.id);
