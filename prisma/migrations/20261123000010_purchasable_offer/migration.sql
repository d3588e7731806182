-- The one definition of a purchasable offer (decisions.md "Catalog semantics"): an active listing
-- of an active store, for a publicly listed product, in stock or backorderable. The search
-- document (refresh_product_search), product retrieval and the cart's line checks all call it; it
-- is a plain SQL expression, so the planner inlines it and plans exactly as before.
CREATE FUNCTION offer_is_purchasable(
  listing_status listing_status, quantity integer, allow_backorder boolean,
  store_status store_status, publicly_listed boolean
) RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT listing_status = 'active' AND store_status = 'active' AND publicly_listed
         AND (quantity > 0 OR allow_backorder)
$$;

CREATE OR REPLACE FUNCTION refresh_product_search(ids uuid[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM products WHERE id = ANY(ids) ORDER BY id FOR NO KEY UPDATE;

  DELETE FROM product_search ps
  WHERE ps.product_id = ANY(ids) AND NOT EXISTS (
    SELECT 1 FROM products p
    JOIN listings l ON l.product_id = p.id
    JOIN stores s ON s.id = l.store_id
    WHERE p.id = ps.product_id
      AND offer_is_purchasable(l.status, l.quantity, l.allow_backorder, s.status, p.publicly_listed));

  INSERT INTO product_search AS ps
  SELECT p.id, p.title, p.search_vector, c.path, p.brand_id, p.published_at, p.rating_count,
         min(l.price_cents),
         count(*)::int,
         bit_or(listing_condition_bit(l.condition)),
         bit_or(catalog_price_bucket_bit(l.price_cents)),
         array_agg(l.condition ORDER BY l.price_cents, l.created_at, l.id),
         array_agg(l.price_cents ORDER BY l.price_cents, l.created_at, l.id)
  FROM products p
  JOIN categories c ON c.id = p.category_id
  JOIN listings l ON l.product_id = p.id
  JOIN stores s ON s.id = l.store_id
  WHERE p.id = ANY(ids)
    AND offer_is_purchasable(l.status, l.quantity, l.allow_backorder, s.status, p.publicly_listed)
  GROUP BY p.id, c.path
  ON CONFLICT (product_id) DO UPDATE SET
    title = EXCLUDED.title, search_vector = EXCLUDED.search_vector,
    category_path = EXCLUDED.category_path, brand_id = EXCLUDED.brand_id,
    published_at = EXCLUDED.published_at, rating_count = EXCLUDED.rating_count,
    min_price_cents = EXCLUDED.min_price_cents, offer_count = EXCLUDED.offer_count,
    condition_mask = EXCLUDED.condition_mask, price_bucket_mask = EXCLUDED.price_bucket_mask,
    offer_conditions = EXCLUDED.offer_conditions, offer_prices = EXCLUDED.offer_prices;

  INSERT INTO search_terms (term)
  SELECT DISTINCT w.term
  FROM products p
  JOIN categories c ON c.id = p.category_id
  LEFT JOIN brands b ON b.id = p.brand_id,
  regexp_split_to_table(lower(p.title || ' ' || coalesce(b.name, '') || ' ' || c.name), '[^[:alnum:]]+') AS w(term)
  WHERE p.id = ANY(ids) AND p.publicly_listed AND length(w.term) >= 3
  ON CONFLICT DO NOTHING;
END $$;
