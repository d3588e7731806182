-- facet_member_pairs for every searchable product, with the lowest offer price of each pair.
--
-- A browse filtered by offers (condition, a price range on bucket bounds) without a brand read
-- every product in the subtree whose offers might pass and sorted them: at 1,000,000 products,
-- electronics (128,050 products) filtered by condition and price read 22,009 rows, 418-800 ms.
-- Now products without a brand have their pair rows too, the index facet_member_pairs_scope
-- reads a subtree's rows of the wanted pairs, and each row carries the lowest price of the
-- product's offers in that pair: a card's price under offer filters is the lowest over its
-- passing pairs, so a price sort is a sort of these rows as well (lib/catalog/facet-counts.ts
-- settledPage). Both indexes carry the price so the page reads no table row to sort.
ALTER TABLE facet_member_pairs ALTER COLUMN brand_id DROP NOT NULL, ADD COLUMN min_price integer NOT NULL DEFAULT 0;
ALTER TABLE facet_member_pairs ALTER COLUMN min_price DROP DEFAULT;
DROP INDEX facet_member_pairs_browse;
CREATE INDEX facet_member_pairs_browse ON facet_member_pairs (brand_id, pair, category_path)
  INCLUDE (product_id, rating_count, published_at, min_price);
CREATE INDEX facet_member_pairs_scope ON facet_member_pairs (pair, category_path)
  INCLUDE (product_id, rating_count, published_at, min_price);

-- The (condition, price bucket) pairs of a product's offers (as offer_pair_mask numbers them),
-- each with its lowest price.
CREATE FUNCTION offer_pair_prices(conds listing_condition[], prices integer[])
RETURNS TABLE (pair smallint, min_price integer) LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT ((array_position(enum_range(NULL::listing_condition), u.c) - 1) * cardinality(catalog_price_bucket_bounds())
          + width_bucket(u.p, catalog_price_bucket_bounds()) - 1)::smallint, min(u.p)
  FROM unnest(conds, prices) AS u(c, p)
  GROUP BY 1
$$;

-- As before (20261128000000_facet_member_pairs), with every product and the pairs' prices.
CREATE OR REPLACE FUNCTION rebuild_facet_bitmaps() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  n integer;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('facet_bitmaps'));
  DELETE FROM facet_pending;
  DELETE FROM facet_bitmaps;
  DELETE FROM facet_members;
  DELETE FROM facet_member_pairs;
  INSERT INTO facet_members (product_id, ordinal, category_path, brand_id, pair_mask)
  SELECT ps.product_id, (row_number() OVER (ORDER BY ps.category_path, ps.brand_id, ps.product_id) - 1)::int,
         ps.category_path, ps.brand_id, offer_pair_mask(ps.offer_conditions, ps.offer_prices)
  FROM product_search ps;
  INSERT INTO facet_member_pairs (brand_id, pair, category_path, product_id, rating_count, published_at, min_price)
  SELECT ps.brand_id, k.pair, ps.category_path, ps.product_id, ps.rating_count, ps.published_at, k.min_price
  FROM product_search ps, offer_pair_prices(ps.offer_conditions, ps.offer_prices) AS k;
  SELECT count(*) INTO n FROM facet_members;
  PERFORM setval('facet_ordinal_seq', n, false);
  -- Each row's bytes as hex: the set bytes of a chunk in order, the gaps between them zero.
  INSERT INTO facet_bitmaps (dim, key, chunk, bits)
  WITH bytes AS (
    SELECT k.dim, k.key, m.ordinal / facet_chunk_bits() AS chunk, (m.ordinal % facet_chunk_bits()) / 8 AS byte,
           bit_or(128 >> (m.ordinal % 8)) AS v
    FROM facet_members m, facet_keys(m.category_path, m.brand_id, m.pair_mask) k
    GROUP BY 1, 2, 3, 4
  ), gapped AS (
    SELECT dim, key, chunk, byte, v, byte - coalesce(lag(byte) OVER w, -1) - 1 AS gap
    FROM bytes WINDOW w AS (PARTITION BY dim, key, chunk ORDER BY byte)
  )
  SELECT dim, key, chunk,
         ('x' || rpad(string_agg(repeat('00', gap) || lpad(to_hex(v), 2, '0'), '' ORDER BY byte),
                      facet_chunk_bits() / 4, '0'))::varbit
  FROM gapped GROUP BY dim, key, chunk;
END $$;

-- As before, with every product and the pairs' prices.
CREATE OR REPLACE FUNCTION compact_facet_bitmaps(max_products integer DEFAULT 10000) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  ids uuid[];
  states facet_state[];
  changes facet_change[];
BEGIN
  IF NOT pg_try_advisory_xact_lock(hashtext('facet_bitmaps')) THEN
    RETURN -1;
  END IF;
  -- Only pending rows committed before this statement are taken; a later change stays pending,
  -- and is read from its row until the next compaction.
  WITH batch AS (SELECT DISTINCT product_id FROM facet_pending LIMIT max_products),
       taken AS (DELETE FROM facet_pending p USING batch b WHERE p.product_id = b.product_id RETURNING p.product_id)
  SELECT array_agg(DISTINCT product_id) INTO ids FROM taken;
  IF ids IS NULL THEN
    RETURN 0;
  END IF;

  INSERT INTO facet_members (product_id)
  SELECT ps.product_id FROM product_search ps WHERE ps.product_id = ANY(ids)
  ON CONFLICT DO NOTHING;

  -- The new states are read once: the bitmaps and facet_members get exactly the same ones.
  SELECT array_agg(ROW(m.product_id, m.ordinal, m.category_path, m.brand_id, m.pair_mask,
                       ps.category_path, ps.brand_id, offer_pair_mask(ps.offer_conditions, ps.offer_prices))::facet_state)
  INTO states
  FROM facet_members m LEFT JOIN product_search ps ON ps.product_id = m.product_id
  WHERE m.product_id = ANY(ids);

  WITH old_keys AS (
    SELECT s.ordinal, k.dim, k.key FROM unnest(states) s, facet_keys(s.old_path, s.old_brand, s.old_mask) k
  ), new_keys AS (
    SELECT s.ordinal, k.dim, k.key FROM unnest(states) s, facet_keys(s.new_path, s.new_brand, s.new_mask) k
  ), diff AS (
    SELECT o.*, false AS value FROM (SELECT * FROM old_keys EXCEPT SELECT * FROM new_keys) o
    UNION ALL
    SELECT n.*, true FROM (SELECT * FROM new_keys EXCEPT SELECT * FROM old_keys) n
  )
  SELECT array_agg(ROW(d.dim, d.key, d.chunk, d.offsets, d.vals)::facet_change) INTO changes
  FROM (SELECT dim, key, ordinal / facet_chunk_bits() AS chunk,
               array_agg(ordinal % facet_chunk_bits()) AS offsets, array_agg(value) AS vals
        FROM diff GROUP BY 1, 2, 3) d;

  INSERT INTO facet_bitmaps (dim, key, chunk, bits)
  SELECT c.dim, c.key, c.chunk, facet_zero_bits() FROM unnest(changes) c
  ON CONFLICT DO NOTHING;
  UPDATE facet_bitmaps fb SET bits = facet_set_bits(fb.bits, c.offsets, c.vals)
  FROM unnest(changes) c
  WHERE fb.dim = c.dim AND fb.key = c.key AND fb.chunk = c.chunk;

  UPDATE facet_members m SET category_path = s.new_path, brand_id = s.new_brand, pair_mask = s.new_mask
  FROM unnest(states) s WHERE m.product_id = s.product_id;

  -- The pair rows, with their sort keys and prices, from the row as it is now: if it changed since
  -- the states were read, that change made the product pending again, and a reader takes it from
  -- its row until next time.
  DELETE FROM facet_member_pairs WHERE product_id = ANY(ids);
  INSERT INTO facet_member_pairs (brand_id, pair, category_path, product_id, rating_count, published_at, min_price)
  SELECT ps.brand_id, k.pair, ps.category_path, ps.product_id, ps.rating_count, ps.published_at, k.min_price
  FROM product_search ps, offer_pair_prices(ps.offer_conditions, ps.offer_prices) AS k
  WHERE ps.product_id = ANY(ids);
  RETURN cardinality(ids);
END $$;


SELECT rebuild_facet_bitmaps();
