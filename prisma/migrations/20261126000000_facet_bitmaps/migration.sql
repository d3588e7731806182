-- Facet counts whose cost does not grow with the catalog (lib/catalog/facet-counts.ts).
--
-- Every searchable product has an ordinal; for each facet value a bitmap over ordinals marks the
-- products that have it: 'a' every searchable product, 'c' a category node (its subtree; key:
-- the node's path), 'b' a brand (key: its id), 'p' an offer pair (key: the pair's index, see
-- offer_pair_mask). A browse's counts are then ANDs, ORs and popcounts of a few bitmaps per
-- 65,536 products, exact by construction: a product with several matching offers is one bit.
--
-- Writers never touch a bitmap: the statement triggers on product_search append the changed
-- products to facet_pending (no lock shared between sellers). A reader counts every pending
-- product from its product_search row and ignores its bits; compact_facet_bitmaps() (run by the
-- app every few seconds, one instance at a time) folds the pending products into the bitmaps and
-- facet_members (what the bitmaps hold for each product) in one transaction. Any snapshot thus
-- reads each product exactly once: from the bitmaps if it is not pending, else from its row.

-- Offer pairs: a purchasable offer's (condition, price bucket). Index = condition position in the
-- enum x bucket count + bucket position: 8 conditions x 6 buckets = 48 bits.
CREATE FUNCTION offer_pair_mask(conds listing_condition[], prices integer[]) RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(bit_or(1::bigint << (
           (array_position(enum_range(NULL::listing_condition), u.c) - 1) * cardinality(catalog_price_bucket_bounds())
           + width_bucket(u.p, catalog_price_bucket_bounds()) - 1)), 0)
  FROM unnest(conds, prices) AS u(c, p)
$$;

-- Products per bitmap row (one varbit of 8 KB).
CREATE FUNCTION facet_chunk_bits() RETURNS integer LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT 65536 $$;

CREATE SEQUENCE facet_ordinal_seq MINVALUE 0 START 0;

-- What the bitmaps hold for each product that ever had bits (no foreign key: a deleted
-- product's bits must still be found to be cleared).
CREATE TABLE facet_members (
    product_id UUID NOT NULL,
    ordinal INTEGER NOT NULL DEFAULT nextval('facet_ordinal_seq'),
    -- Null when the product is in no bitmap (not searchable at the last compaction).
    category_path ltree,
    brand_id UUID,
    pair_mask BIGINT,
    CONSTRAINT facet_members_pkey PRIMARY KEY (product_id),
    CONSTRAINT facet_members_ordinal_key UNIQUE (ordinal)
);

CREATE TABLE facet_bitmaps (
    dim "char" NOT NULL,
    key TEXT NOT NULL,
    chunk INTEGER NOT NULL,
    bits VARBIT NOT NULL,
    CONSTRAINT facet_bitmaps_pkey PRIMARY KEY (dim, key, chunk)
);
-- lz4 decompresses several times faster than the default pglz; the embedded PGlite build has
-- no lz4 and keeps the default.
DO $$ BEGIN
  ALTER TABLE facet_bitmaps ALTER COLUMN bits SET COMPRESSION lz4;
EXCEPTION WHEN OTHERS THEN NULL;
END $$;

-- Products changed since the last compaction (duplicates allowed; append-only).
CREATE TABLE facet_pending (
    product_id UUID NOT NULL
);
CREATE INDEX facet_pending_product_id_idx ON facet_pending (product_id);

-- The bitmap rows a product state sets bits in.
CREATE FUNCTION facet_keys(path ltree, brand uuid, mask bigint) RETURNS TABLE (dim "char", key text)
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT 'a'::"char", '' WHERE path IS NOT NULL
  UNION ALL SELECT 'c', subpath(path, 0, l)::text FROM generate_series(1, nlevel(path)) AS l WHERE path IS NOT NULL
  UNION ALL SELECT 'b', brand::text WHERE path IS NOT NULL AND brand IS NOT NULL
  UNION ALL SELECT 'p', i::text
    FROM generate_series(0, cardinality(enum_range(NULL::listing_condition)) * cardinality(catalog_price_bucket_bounds()) - 1) AS i
    WHERE path IS NOT NULL AND mask & (1::bigint << i) <> 0
$$;

-- bits with the given offsets set to the given values.
CREATE FUNCTION facet_set_bits(bits varbit, offsets integer[], vals boolean[]) RETURNS varbit
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
  FOR i IN 1 .. coalesce(cardinality(offsets), 0) LOOP
    bits := set_bit(bits, offsets[i], vals[i]::int);
  END LOOP;
  RETURN bits;
END $$;

CREATE FUNCTION facet_zero_bits() RETURNS varbit LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT repeat('0', facet_chunk_bits())::varbit
$$;

-- A bitmap row of the given offsets (the pending products of one chunk, for a reader to mask).
CREATE FUNCTION facet_bits_of(offsets integer[]) RETURNS varbit LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT facet_set_bits(facet_zero_bits(), offsets, array_fill(true, ARRAY[cardinality(offsets)]))
$$;

-- Rebuilds every bitmap from product_search: ordinals are dealt in category order, so that a
-- category's products share few chunks (the seed and the migration call it; compaction does when
-- most products are pending). Waits for a running compaction.
CREATE FUNCTION rebuild_facet_bitmaps() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  n integer;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('facet_bitmaps'));
  DELETE FROM facet_pending;
  DELETE FROM facet_bitmaps;
  DELETE FROM facet_members;
  INSERT INTO facet_members (product_id, ordinal, category_path, brand_id, pair_mask)
  SELECT ps.product_id, (row_number() OVER (ORDER BY ps.category_path, ps.brand_id, ps.product_id) - 1)::int,
         ps.category_path, ps.brand_id, offer_pair_mask(ps.offer_conditions, ps.offer_prices)
  FROM product_search ps;
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

-- A product's facet state before and after a compaction, and one bitmap row's bit changes.
CREATE TYPE facet_state AS (product_id uuid, ordinal integer, old_path ltree, old_brand uuid, old_mask bigint,
                            new_path ltree, new_brand uuid, new_mask bigint);
CREATE TYPE facet_change AS (dim "char", key text, chunk integer, offsets integer[], vals boolean[]);

-- Folds up to max_products pending products into the bitmaps (bit by bit: about a second for
-- 10,000 products, inside the app's statement timeout; a larger backlog takes several turns, and
-- rebuild_facet_bitmaps() does everything in one pass where no timeout applies). Returns how many
-- products it applied, or -1 when another compaction or rebuild holds the lock (then it did nothing).
CREATE FUNCTION compact_facet_bitmaps(max_products integer DEFAULT 10000) RETURNS integer LANGUAGE plpgsql AS $$
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
  RETURN cardinality(ids);
END $$;

-- product_search changes: what moved a product's facet state is pending; any real change of a
-- row also tells the app's listeners that search results may differ (the counts cache).
CREATE FUNCTION product_search_changed() RETURNS trigger LANGUAGE plpgsql AS $$
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
       OR n.offer_prices IS DISTINCT FROM o.offer_prices;
    changed := FOUND OR EXISTS (
      SELECT 1 FROM new_rows n JOIN old_rows o ON o.product_id = n.product_id
      WHERE (n.*) IS DISTINCT FROM (o.*));
  END IF;
  IF changed THEN
    PERFORM pg_notify('catalog_changes', 'search');
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER product_search_facets_insert AFTER INSERT ON product_search
REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION product_search_changed();
CREATE TRIGGER product_search_facets_update AFTER UPDATE ON product_search
REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION product_search_changed();
CREATE TRIGGER product_search_facets_delete AFTER DELETE ON product_search
REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION product_search_changed();

-- TRUNCATE product_search (the seed) leaves the bitmaps describing nothing: they go too.
CREATE FUNCTION product_search_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE facet_pending, facet_bitmaps, facet_members;
  PERFORM setval('facet_ordinal_seq', 0, false);
  PERFORM pg_notify('catalog_changes', 'search');
  RETURN NULL;
END $$;
CREATE TRIGGER product_search_facets_truncate AFTER TRUNCATE ON product_search
FOR EACH STATEMENT EXECUTE FUNCTION product_search_truncated();

SELECT rebuild_facet_bitmaps();

-- A category's products are read through the B-tree product_search_browse (lib/catalog/search.ts
-- bounds `<@` by a range); with this GiST index beside it the planner chose the GiST for small
-- subtrees and then sorted every row (100 ms for a leaf of 16,000 products at 1M, against 2 ms).
DROP INDEX product_search_category_path_gist;
