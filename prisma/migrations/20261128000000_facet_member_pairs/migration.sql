-- A browse filtered by brand and offers reads the products that pass from facet_member_pairs:
-- one row per settled product and offer pair it has (its compacted state, as the bitmaps hold
-- it), with its brand, category path and sort keys. The index reads exactly the (brand, pair)
-- rows in the subtree, where facet_members_brand_browse (20261127000100) read every product of
-- the brands in the subtree and tested its pair mask (at 100,000 products up to 2,679 rows read
-- for 32 kept). Sorted by relevance (most rated first) or newest, the page is picked from these
-- rows alone (lib/catalog/facet-counts.ts settledPage) and only its own rows are read from
-- product_search; before, every passing product's row was read to sort it. A change of a sort
-- key makes the product pending, as a change of its facet state does, so a settled product's
-- rows here are its current ones. Products without a brand have none (the page takes this path
-- only with a brand filter).
CREATE TABLE facet_member_pairs (
    brand_id uuid NOT NULL,
    pair smallint NOT NULL,
    category_path ltree NOT NULL,
    product_id uuid NOT NULL,
    rating_count integer,
    published_at timestamptz
);
CREATE INDEX facet_member_pairs_browse ON facet_member_pairs (brand_id, pair, category_path)
  INCLUDE (product_id, rating_count, published_at);
CREATE INDEX facet_member_pairs_product ON facet_member_pairs (product_id);
DROP INDEX facet_members_brand_browse;

-- The rows of one product state: one per offer pair in its mask.
CREATE FUNCTION facet_pairs_of(mask bigint) RETURNS SETOF smallint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT i::smallint
  FROM generate_series(0, cardinality(enum_range(NULL::listing_condition)) * cardinality(catalog_price_bucket_bounds()) - 1) AS i
  WHERE mask & (1::bigint << i) <> 0
$$;

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
  INSERT INTO facet_member_pairs (brand_id, pair, category_path, product_id, rating_count, published_at)
  SELECT m.brand_id, k.pair, m.category_path, m.product_id, ps.rating_count, ps.published_at
  FROM facet_members m JOIN product_search ps ON ps.product_id = m.product_id, facet_pairs_of(m.pair_mask) AS k(pair)
  WHERE m.brand_id IS NOT NULL;
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

-- As before (20261126000000_facet_bitmaps), and facet_member_pairs follows facet_members.
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

  -- The pair rows of the same states; the sort keys come from the row as it is now: if it changed
  -- since the states were read, that change made the product pending again, and a reader takes
  -- it from its row until next time.
  DELETE FROM facet_member_pairs WHERE product_id = ANY(ids);
  INSERT INTO facet_member_pairs (brand_id, pair, category_path, product_id, rating_count, published_at)
  SELECT s.new_brand, k.pair, s.new_path, s.product_id, ps.rating_count, ps.published_at
  FROM unnest(states) s LEFT JOIN product_search ps ON ps.product_id = s.product_id,
       facet_pairs_of(s.new_mask) AS k(pair)
  WHERE s.new_path IS NOT NULL AND s.new_brand IS NOT NULL;
  RETURN cardinality(ids);
END $$;

-- As before, and a change of a sort key kept in facet_member_pairs makes the product pending too.
CREATE OR REPLACE FUNCTION product_search_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed boolean;
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO facet_pending (product_id) SELECT product_id FROM new_rows;
    changed := FOUND;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO facet_pending (product_id) SELECT product_id FROM old_rows;
    changed := FOUND;
  ELSE
    INSERT INTO facet_pending (product_id)
    SELECT n.product_id FROM new_rows n JOIN old_rows o ON o.product_id = n.product_id
    WHERE n.category_path IS DISTINCT FROM o.category_path
       OR n.brand_id IS DISTINCT FROM o.brand_id
       OR n.offer_conditions IS DISTINCT FROM o.offer_conditions
       OR n.offer_prices IS DISTINCT FROM o.offer_prices
       OR n.rating_count IS DISTINCT FROM o.rating_count
       OR n.published_at IS DISTINCT FROM o.published_at;
    changed := FOUND OR EXISTS (
      SELECT 1 FROM new_rows n JOIN old_rows o ON o.product_id = n.product_id
      WHERE (n.*) IS DISTINCT FROM (o.*));
  END IF;
  IF changed THEN
    PERFORM pg_notify('catalog_changes', 'search');
  END IF;
  RETURN NULL;
END $$;

-- TRUNCATE product_search (the seed): the pair rows go with the bitmaps.
CREATE OR REPLACE FUNCTION product_search_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE facet_pending, facet_bitmaps, facet_members, facet_member_pairs;
  PERFORM setval('facet_ordinal_seq', 0, false);
  PERFORM pg_notify('catalog_changes', 'search');
  RETURN NULL;
END $$;

SELECT rebuild_facet_bitmaps();
