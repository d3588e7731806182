-- Search that forgives the way people type (decisions.md "Search forgives ..."):
-- * one text search configuration for index and query alike, `catalog`: English stemming after
--   `unaccent`, applied to NFKC-normalised text, so case, diacritics and full-width forms fold;
-- * textual attribute values (colour, material, ...) and the names of true boolean attributes
--   ("waterproof") in the document with the lowest weight, D, beside the description;
-- * the dictionary of words (search_terms) gains attribute words, and a C-collation index so a
--   half-typed last word finds its completions by range;
-- * product_search.title_key, the title as a comparable key (lib/catalog/query.ts searchKey).
CREATE EXTENSION IF NOT EXISTS unaccent;
CREATE EXTENSION IF NOT EXISTS fuzzystrmatch;

CREATE TEXT SEARCH CONFIGURATION catalog (COPY = english);
ALTER TEXT SEARCH CONFIGURATION catalog
  ALTER MAPPING FOR hword, hword_part, word WITH unaccent, english_stem;

-- A comparable form of a text: NFKC, diacritics removed, lower case, every run of characters other
-- than letters and digits one space. lib/catalog/query.ts searchKey computes the same for a query.
CREATE FUNCTION search_key(t text) RETURNS text LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT btrim(regexp_replace(lower(unaccent(normalize(t, NFKC))), '[^[:alnum:]]+', ' ', 'g'))
$$;

-- The searchable words of a product's attributes: string values and the names of true flags.
CREATE FUNCTION product_attribute_words(attributes jsonb) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(string_agg(
           CASE WHEN jsonb_typeof(a.value) = 'string' THEN a.value #>> '{}'
                WHEN a.value = 'true'::jsonb THEN replace(a.key, '_', ' ') END, ' ' ORDER BY a.key), '')
  FROM jsonb_each(CASE WHEN jsonb_typeof(attributes) = 'object' THEN attributes ELSE '{}'::jsonb END) a
$$;

-- Weighted document: title A, brand B, category names (node and ancestors) C, description and
-- attribute words D.
CREATE OR REPLACE FUNCTION products_search_vector_fill() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_vector :=
    setweight(to_tsvector('catalog', normalize(coalesce(NEW.title, ''), NFKC)), 'A') ||
    setweight(to_tsvector('catalog', normalize(coalesce((SELECT b.name FROM brands b WHERE b.id = NEW.brand_id), ''), NFKC)), 'B') ||
    setweight(to_tsvector('catalog', normalize(coalesce((
      SELECT string_agg(a.name, ' ' ORDER BY nlevel(a.path))
      FROM categories me JOIN categories a ON a.path @> me.path
      WHERE me.id = NEW.category_id), ''), NFKC)), 'C') ||
    setweight(to_tsvector('catalog', normalize(
      coalesce(NEW.description, '') || ' ' || product_attribute_words(NEW.attributes), NFKC)), 'D');
  RETURN NEW;
END $$;

DROP TRIGGER products_search_vector ON products;
CREATE TRIGGER products_search_vector
BEFORE INSERT OR UPDATE OF title, description, brand_id, category_id, attributes ON products
FOR EACH ROW EXECUTE FUNCTION products_search_vector_fill();

ALTER TABLE product_search ADD COLUMN title_key text NOT NULL DEFAULT '';

CREATE INDEX search_terms_prefix ON search_terms (term COLLATE "C");

-- Every lexeme of a searchable document: whether the catalog contains a query word at all (then
-- it is never corrected) is one primary-key probe, not a scan that the planner may misjudge.
-- Like search_terms, lexemes are only added.
CREATE TABLE search_lexemes (
    lexeme TEXT NOT NULL,
    CONSTRAINT search_lexemes_pkey PRIMARY KEY (lexeme)
);

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
    (product_id, title, search_vector, category_path, brand_id, published_at, rating_count,
     min_price_cents, offer_count, condition_mask, price_bucket_mask, offer_conditions, offer_prices, title_key)
  SELECT p.id, p.title, p.search_vector, c.path, p.brand_id, p.published_at, p.rating_count,
         min(l.price_cents),
         count(*)::int,
         bit_or(listing_condition_bit(l.condition)),
         bit_or(catalog_price_bucket_bit(l.price_cents)),
         array_agg(l.condition ORDER BY l.price_cents, l.created_at, l.id),
         array_agg(l.price_cents ORDER BY l.price_cents, l.created_at, l.id),
         search_key(p.title)
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
    offer_conditions = EXCLUDED.offer_conditions, offer_prices = EXCLUDED.offer_prices,
    title_key = EXCLUDED.title_key;

  INSERT INTO search_lexemes (lexeme)
  SELECT DISTINCT unnest(tsvector_to_array(ps.search_vector)) FROM product_search ps WHERE ps.product_id = ANY(ids)
  ON CONFLICT DO NOTHING;

  -- The dictionary: words of titles, brand and category names and attribute words, in key form.
  INSERT INTO search_terms (term)
  SELECT DISTINCT w.term
  FROM products p
  JOIN categories c ON c.id = p.category_id
  LEFT JOIN brands b ON b.id = p.brand_id,
  regexp_split_to_table(search_key(p.title || ' ' || coalesce(b.name, '') || ' ' || c.name || ' ' ||
                                   product_attribute_words(p.attributes)), ' ') AS w(term)
  WHERE p.id = ANY(ids) AND p.publicly_listed AND length(w.term) >= 3
  ON CONFLICT DO NOTHING;
END $$;

-- Every document again under the new configuration (the trigger recomputes search_vector; the
-- statement trigger then refreshes product_search and the dictionary).
UPDATE products SET title = title;
