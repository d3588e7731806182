-- Search support: the stored weighted tsvector on products and product_search, one row per
-- searchable product (publicly listed, with at least one purchasable offer), kept current by
-- statement-level triggers so that bulk loads and single seller edits take the same path.

-- Price facet buckets (USD cents, max exclusive). The one definition: lib/catalog reads it.
CREATE FUNCTION catalog_price_bucket_bounds() RETURNS integer[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT ARRAY[0, 2500, 5000, 10000, 20000, 50000] $$;

-- Bit of a condition in product_search.condition_mask: its position in the enum (0-based).
CREATE FUNCTION listing_condition_bit(c listing_condition) RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT 1 << (array_position(enum_range(NULL::listing_condition), c) - 1)
$$;

-- Bit of a price in product_search.price_bucket_mask: its bucket in catalog_price_bucket_bounds().
CREATE FUNCTION catalog_price_bucket_bit(cents integer) RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT 1 << (width_bucket(cents, catalog_price_bucket_bounds()) - 1)
$$;

-- Weighted document: title A, brand B, category names (node and ancestors) C, description D.
CREATE FUNCTION products_search_vector_fill() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_vector :=
    setweight(to_tsvector('english', coalesce(NEW.title, '')), 'A') ||
    setweight(to_tsvector('english', coalesce((SELECT b.name FROM brands b WHERE b.id = NEW.brand_id), '')), 'B') ||
    setweight(to_tsvector('english', coalesce((
      SELECT string_agg(a.name, ' ' ORDER BY nlevel(a.path))
      FROM categories me JOIN categories a ON a.path @> me.path
      WHERE me.id = NEW.category_id), '')), 'C') ||
    setweight(to_tsvector('english', coalesce(NEW.description, '')), 'D');
  RETURN NEW;
END $$;

CREATE TRIGGER products_search_vector
BEFORE INSERT OR UPDATE OF title, description, brand_id, category_id ON products
FOR EACH ROW EXECUTE FUNCTION products_search_vector_fill();

-- A renamed brand or category re-weights the documents that mention it.
CREATE FUNCTION brands_rename_refresh() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE products SET title = title WHERE brand_id = NEW.id;
  RETURN NULL;
END $$;
CREATE TRIGGER brands_rename AFTER UPDATE OF name ON brands
FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name) EXECUTE FUNCTION brands_rename_refresh();

CREATE FUNCTION categories_rename_refresh() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE products p SET title = p.title
  FROM categories c WHERE c.id = p.category_id AND c.path <@ NEW.path;
  RETURN NULL;
END $$;
CREATE TRIGGER categories_rename AFTER UPDATE OF name, path ON categories
FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.path IS DISTINCT FROM NEW.path)
EXECUTE FUNCTION categories_rename_refresh();

CREATE TABLE "product_search" (
    "product_id" UUID NOT NULL,
    -- Copies of the product's title and search document, so that text search reads one table.
    "title" TEXT NOT NULL,
    "search_vector" tsvector NOT NULL,
    "category_path" ltree NOT NULL,
    "brand_id" UUID,
    "published_at" TIMESTAMPTZ(3),
    "rating_count" INTEGER NOT NULL,
    "min_price_cents" INTEGER NOT NULL,
    "offer_count" INTEGER NOT NULL,
    "condition_mask" INTEGER NOT NULL,
    "price_bucket_mask" INTEGER NOT NULL,
    -- Purchasable offers, cheapest first, as parallel arrays (offer-level filters read them).
    "offer_conditions" listing_condition[] NOT NULL,
    "offer_prices" INTEGER[] NOT NULL,
    CONSTRAINT "product_search_pkey" PRIMARY KEY ("product_id"),
    CONSTRAINT "product_search_product_id_fkey" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE CASCADE
);
CREATE INDEX "product_search_search_vector_gin" ON "product_search" USING GIN ("search_vector");
CREATE INDEX "product_search_category_path_gist" ON "product_search" USING GIST ("category_path");
-- Browsing a subtree reads only this index (index-only scan): lib/catalog/search.ts bounds
-- `category_path <@ P` by the B-tree range [P, P with '0' appended to its last label).
CREATE INDEX "product_search_browse" ON "product_search" ("category_path")
  INCLUDE ("product_id", "brand_id", "published_at", "rating_count", "min_price_cents", "offer_count",
           "condition_mask", "price_bucket_mask");
CREATE INDEX "product_search_brand_id_idx" ON "product_search" ("brand_id");
CREATE INDEX "product_search_popular_idx" ON "product_search" ("rating_count" DESC, "product_id");
CREATE INDEX "product_search_newest_idx" ON "product_search" ("published_at" DESC NULLS LAST, "product_id");
CREATE INDEX "product_search_price_idx" ON "product_search" ("min_price_cents", "product_id");

-- Words of searchable titles, brand and category names: the dictionary that corrects a
-- misspelt query word to its nearest term (by trigram similarity). Terms are only added.
CREATE TABLE "search_terms" (
    "term" TEXT NOT NULL,
    CONSTRAINT "search_terms_pkey" PRIMARY KEY ("term")
);
CREATE INDEX "search_terms_term_trgm" ON "search_terms" USING GIN ("term" gin_trgm_ops);

-- Recomputes the rows of the given products (the single definition of "purchasable offer").
-- The product rows are locked first (in id order), and the aggregate is read in a later
-- statement, so its snapshot includes every committed change of a concurrent transaction
-- that refreshed the same product: the last writer always sees the other's listings.
CREATE FUNCTION refresh_product_search(ids uuid[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM products WHERE id = ANY(ids) ORDER BY id FOR NO KEY UPDATE;

  DELETE FROM product_search ps
  WHERE ps.product_id = ANY(ids) AND NOT EXISTS (
    SELECT 1 FROM products p
    JOIN listings l ON l.product_id = p.id AND l.status = 'active' AND (l.quantity > 0 OR l.allow_backorder)
    JOIN stores s ON s.id = l.store_id AND s.status = 'active'
    WHERE p.id = ps.product_id AND p.publicly_listed);

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
    AND l.status = 'active' AND (l.quantity > 0 OR l.allow_backorder)
  JOIN stores s ON s.id = l.store_id AND s.status = 'active'
  WHERE p.id = ANY(ids) AND p.publicly_listed
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

CREATE FUNCTION listings_refresh_search_new() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM refresh_product_search(ARRAY(SELECT DISTINCT product_id FROM new_rows));
  RETURN NULL;
END $$;
CREATE FUNCTION listings_refresh_search_old() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM refresh_product_search(ARRAY(SELECT DISTINCT product_id FROM old_rows));
  RETURN NULL;
END $$;
CREATE FUNCTION listings_refresh_search_both() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM refresh_product_search(ARRAY(
    SELECT product_id FROM new_rows UNION SELECT product_id FROM old_rows));
  RETURN NULL;
END $$;
-- Purchasability depends on listing status, quantity, backorder and price; any listing write
-- refreshes its products (old and new product on a move).
CREATE TRIGGER listings_search_insert AFTER INSERT ON listings
REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION listings_refresh_search_new();
CREATE TRIGGER listings_search_update AFTER UPDATE ON listings
REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION listings_refresh_search_both();
CREATE TRIGGER listings_search_delete AFTER DELETE ON listings
REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION listings_refresh_search_old();

CREATE FUNCTION products_refresh_search() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM refresh_product_search(ARRAY(SELECT id FROM new_rows));
  RETURN NULL;
END $$;
CREATE TRIGGER products_search_insert AFTER INSERT ON products
REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION products_refresh_search();
CREATE TRIGGER products_search_update AFTER UPDATE ON products
REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION products_refresh_search();

CREATE FUNCTION stores_refresh_search() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM refresh_product_search(ARRAY(
    SELECT DISTINCT l.product_id FROM listings l
    JOIN new_rows n ON n.id = l.store_id
    JOIN old_rows o ON o.id = n.id
    WHERE o.status IS DISTINCT FROM n.status));
  RETURN NULL;
END $$;
CREATE TRIGGER stores_search_update AFTER UPDATE ON stores
REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION stores_refresh_search();

CREATE FUNCTION categories_refresh_search() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM refresh_product_search(ARRAY(
    SELECT p.id FROM products p JOIN new_rows n ON n.id = p.category_id
    JOIN old_rows o ON o.id = n.id WHERE o.path IS DISTINCT FROM n.path));
  RETURN NULL;
END $$;
CREATE TRIGGER categories_search_update AFTER UPDATE ON categories
REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION categories_refresh_search();
