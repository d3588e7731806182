-- Text counts without scanning the matching set (lib/catalog/facet-counts.ts): a bitmap per
-- lexeme ('w', key: the lexeme) of the products whose search_vector holds it, beside the facet
-- bitmaps. A text query's matching set is then ANDs, ORs and ANDNOTs of its words' bitmaps per
-- 65,536 products, combined with the facet bitmaps as a browse's counts are: exact, because a
-- word's tsquery (plainto_tsquery) is the AND of its lexemes, and @@ tests membership only.
--
-- facet_members.lexemes keeps the lexemes the bitmaps hold for each product, so that a
-- compaction clears the bits of the ones a product lost. A sparse bitmap (a rare word) is mostly
-- zeros and is stored compressed: a few dozen bytes per chunk.
ALTER TABLE facet_members ADD COLUMN lexemes text[];

-- A changed document makes its product pending as a changed facet does.
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
       OR n.published_at IS DISTINCT FROM o.published_at
       OR n.search_vector IS DISTINCT FROM o.search_vector;
    changed := FOUND OR EXISTS (
      SELECT 1 FROM new_rows n JOIN old_rows o ON o.product_id = n.product_id
      WHERE (n.*) IS DISTINCT FROM (o.*));
  END IF;
  IF changed THEN
    PERFORM pg_notify('catalog_changes', 'search');
  END IF;
  RETURN NULL;
END $$;

-- The bitmap rows a product state sets bits in: as before, and one per lexeme of its document.
CREATE FUNCTION facet_keys(path ltree, brand uuid, mask bigint, lexemes text[]) RETURNS TABLE (dim "char", key text)
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT k.dim, k.key FROM facet_keys(path, brand, mask) k
  UNION ALL SELECT 'w', l FROM unnest(lexemes) AS l WHERE path IS NOT NULL
$$;

-- As before (20261129000100_facet_member_pairs_prices), with each product's lexemes.
CREATE OR REPLACE FUNCTION rebuild_facet_bitmaps() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  n integer;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('facet_bitmaps'));
  DELETE FROM facet_pending;
  DELETE FROM facet_bitmaps;
  DELETE FROM facet_members;
  DELETE FROM facet_member_pairs;
  INSERT INTO facet_members (product_id, ordinal, category_path, brand_id, pair_mask, lexemes)
  SELECT ps.product_id, (row_number() OVER (ORDER BY ps.category_path, ps.brand_id, ps.product_id) - 1)::int,
         ps.category_path, ps.brand_id, offer_pair_mask(ps.offer_conditions, ps.offer_prices),
         tsvector_to_array(ps.search_vector)
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
    FROM facet_members m, facet_keys(m.category_path, m.brand_id, m.pair_mask, m.lexemes) k
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

ALTER TYPE facet_state ADD ATTRIBUTE old_lexemes text[], ADD ATTRIBUTE new_lexemes text[];

-- As before, with each product's lexemes.
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
                       ps.category_path, ps.brand_id, offer_pair_mask(ps.offer_conditions, ps.offer_prices),
                       m.lexemes, tsvector_to_array(ps.search_vector))::facet_state)
  INTO states
  FROM facet_members m LEFT JOIN product_search ps ON ps.product_id = m.product_id
  WHERE m.product_id = ANY(ids);

  WITH old_keys AS (
    SELECT s.ordinal, k.dim, k.key FROM unnest(states) s, facet_keys(s.old_path, s.old_brand, s.old_mask, s.old_lexemes) k
  ), new_keys AS (
    SELECT s.ordinal, k.dim, k.key FROM unnest(states) s, facet_keys(s.new_path, s.new_brand, s.new_mask, s.new_lexemes) k
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

  UPDATE facet_members m SET category_path = s.new_path, brand_id = s.new_brand, pair_mask = s.new_mask,
                             lexemes = s.new_lexemes
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
