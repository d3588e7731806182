-- Every app instance keeps public product records (lib/catalog/product.ts) and "this storefront
-- page exists" answers (lib/storefront/page-exists.ts) in memory; these triggers tell them, at
-- commit, what to forget: NOTIFY catalog_changes 'products:<id>,<id>,...' naming the products
-- whose record may have changed, or 'products:*' when the set is unknown or large. The listener is
-- lib/db/changes.ts. Statement-level, so a bulk write sends one notification (and NOTIFY folds
-- identical payloads of one transaction into one). Updates that change nothing those answers read
-- (a stock count that stays above zero, change_seq, updated_at) send nothing.

-- More ids than this go as '*': 100 uuids are about 3.7 kB, well under NOTIFY's 8000-byte payload.
CREATE FUNCTION catalog_notify_products(ids uuid[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF cardinality(ids) = 0 THEN
    RETURN;
  ELSIF cardinality(ids) > 100 THEN
    PERFORM pg_notify('catalog_changes', 'products:*');
  ELSE
    PERFORM pg_notify('catalog_changes', 'products:' || array_to_string(ids, ','));
  END IF;
END $$;

-- Stores, brands and categories show in many records: every instance forgets them all.
CREATE FUNCTION catalog_notify_all_products() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('catalog_changes', 'products:*');
  RETURN NULL;
END $$;

-- Products: any column getProduct or page-exists reads.
CREATE FUNCTION products_notify_new() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM catalog_notify_products(ARRAY(SELECT id FROM new_rows LIMIT 101));
  RETURN NULL;
END $$;
CREATE FUNCTION products_notify_old() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM catalog_notify_products(ARRAY(SELECT id FROM old_rows LIMIT 101));
  RETURN NULL;
END $$;
CREATE FUNCTION products_notify_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM catalog_notify_products(ARRAY(
    SELECT n.id FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE (n.slug, n.title, n.description, n.gtin, n.mpn, n.attributes, n.rating_avg, n.rating_count,
           n.brand_id, n.category_id, n.publicly_listed)
          IS DISTINCT FROM
          (o.slug, o.title, o.description, o.gtin, o.mpn, o.attributes, o.rating_avg, o.rating_count,
           o.brand_id, o.category_id, o.publicly_listed)
    LIMIT 101));
  RETURN NULL;
END $$;
CREATE TRIGGER products_notify_insert AFTER INSERT ON products
REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION products_notify_new();
CREATE TRIGGER products_notify_update AFTER UPDATE ON products
REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION products_notify_update();
CREATE TRIGGER products_notify_delete AFTER DELETE ON products
REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION products_notify_old();

-- Listings: only an active listing can be an offer (offer_is_purchasable), so a draft, inactive
-- or archived one that stays so changes no record.
CREATE FUNCTION listings_notify_new() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM catalog_notify_products(ARRAY(
    SELECT DISTINCT product_id FROM new_rows WHERE status = 'active' LIMIT 101));
  RETURN NULL;
END $$;
CREATE FUNCTION listings_notify_old() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM catalog_notify_products(ARRAY(
    SELECT DISTINCT product_id FROM old_rows WHERE status = 'active' LIMIT 101));
  RETURN NULL;
END $$;
-- The offer's fields, whether it is purchasable (status, stock or backorder), its order (price,
-- created_at) and its shipping (template): the old and the new product when a listing moves.
CREATE FUNCTION listings_notify_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM catalog_notify_products(ARRAY(
    SELECT DISTINCT x.product_id
    FROM new_rows n JOIN old_rows o ON o.id = n.id
    CROSS JOIN LATERAL (VALUES (n.product_id), (o.product_id)) x(product_id)
    WHERE (n.status = 'active' OR o.status = 'active')
      AND (n.product_id, n.store_id, n.status, n.price_cents, n.list_price_cents, n.currency, n.condition,
           n.quantity > 0, n.allow_backorder, n.shipping_template_id, n.created_at)
          IS DISTINCT FROM
          (o.product_id, o.store_id, o.status, o.price_cents, o.list_price_cents, o.currency, o.condition,
           o.quantity > 0, o.allow_backorder, o.shipping_template_id, o.created_at)
    LIMIT 101));
  RETURN NULL;
END $$;
CREATE TRIGGER listings_notify_insert AFTER INSERT ON listings
REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION listings_notify_new();
CREATE TRIGGER listings_notify_update AFTER UPDATE ON listings
REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION listings_notify_update();
CREATE TRIGGER listings_notify_delete AFTER DELETE ON listings
REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION listings_notify_old();

-- Images: the products they belong to (before and after, should one move).
CREATE FUNCTION product_images_notify_new() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM catalog_notify_products(ARRAY(SELECT DISTINCT product_id FROM new_rows LIMIT 101));
  RETURN NULL;
END $$;
CREATE FUNCTION product_images_notify_old() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM catalog_notify_products(ARRAY(SELECT DISTINCT product_id FROM old_rows LIMIT 101));
  RETURN NULL;
END $$;
CREATE FUNCTION product_images_notify_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM catalog_notify_products(ARRAY(
    SELECT DISTINCT x.product_id
    FROM new_rows n JOIN old_rows o ON o.id = n.id
    CROSS JOIN LATERAL (VALUES (n.product_id), (o.product_id)) x(product_id)
    WHERE (n.product_id, n.url, n.alt, n.width, n.height, n.position)
          IS DISTINCT FROM (o.product_id, o.url, o.alt, o.width, o.height, o.position)
    LIMIT 101));
  RETURN NULL;
END $$;
CREATE TRIGGER product_images_notify_insert AFTER INSERT ON product_images
REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION product_images_notify_new();
CREATE TRIGGER product_images_notify_update AFTER UPDATE ON product_images
REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION product_images_notify_update();
CREATE TRIGGER product_images_notify_delete AFTER DELETE ON product_images
REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION product_images_notify_old();

-- Shipping rates: a record's buy box weighs the US (else '*') standard rate of each offer's
-- template, so a change to such a rate concerns the products with an active listing on the template.
CREATE FUNCTION shipping_rates_notify_templates(template_ids uuid[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF cardinality(template_ids) > 0 THEN
    PERFORM catalog_notify_products(ARRAY(
      SELECT DISTINCT l.product_id FROM listings l
      WHERE l.shipping_template_id = ANY(template_ids) AND l.status = 'active'
      LIMIT 101));
  END IF;
END $$;
CREATE FUNCTION shipping_rates_notify_new() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM shipping_rates_notify_templates(ARRAY(
    SELECT DISTINCT template_id FROM new_rows WHERE service = 'standard' AND region IN ('US', '*')));
  RETURN NULL;
END $$;
CREATE FUNCTION shipping_rates_notify_old() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM shipping_rates_notify_templates(ARRAY(
    SELECT DISTINCT template_id FROM old_rows WHERE service = 'standard' AND region IN ('US', '*')));
  RETURN NULL;
END $$;
CREATE FUNCTION shipping_rates_notify_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM shipping_rates_notify_templates(ARRAY(
    SELECT DISTINCT x.template_id
    FROM new_rows n JOIN old_rows o ON o.id = n.id
    CROSS JOIN LATERAL (VALUES (n.template_id), (o.template_id)) x(template_id)
    WHERE ((n.service = 'standard' AND n.region IN ('US', '*')) OR (o.service = 'standard' AND o.region IN ('US', '*')))
      AND (n.template_id, n.region, n.service, n.price_cents) IS DISTINCT FROM (o.template_id, o.region, o.service, o.price_cents)));
  RETURN NULL;
END $$;
CREATE TRIGGER shipping_rates_notify_insert AFTER INSERT ON shipping_rates
REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION shipping_rates_notify_new();
CREATE TRIGGER shipping_rates_notify_update AFTER UPDATE ON shipping_rates
REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION shipping_rates_notify_update();
CREATE TRIGGER shipping_rates_notify_delete AFTER DELETE ON shipping_rates
REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION shipping_rates_notify_old();

-- Stores: name and slug show on offers, status decides them and the store's page. A new or
-- deleted store changes whether its page exists.
CREATE FUNCTION stores_notify_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM new_rows n JOIN old_rows o ON o.id = n.id
             WHERE (n.slug, n.name, n.status) IS DISTINCT FROM (o.slug, o.name, o.status)) THEN
    PERFORM pg_notify('catalog_changes', 'products:*');
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER stores_notify_insert AFTER INSERT ON stores
FOR EACH STATEMENT EXECUTE FUNCTION catalog_notify_all_products();
CREATE TRIGGER stores_notify_update AFTER UPDATE ON stores
REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION stores_notify_update();
CREATE TRIGGER stores_notify_delete AFTER DELETE ON stores
FOR EACH STATEMENT EXECUTE FUNCTION catalog_notify_all_products();

-- Brands: name and slug show on records. A new brand is on no product yet, and a deleted one
-- clears products.brand_id (ON DELETE SET NULL), which the products trigger reports.
CREATE FUNCTION brands_notify_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM new_rows n JOIN old_rows o ON o.id = n.id
             WHERE (n.slug, n.name) IS DISTINCT FROM (o.slug, o.name)) THEN
    PERFORM pg_notify('catalog_changes', 'products:*');
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER brands_notify_update AFTER UPDATE ON brands
REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION brands_notify_update();

-- Categories: breadcrumbs (slug, name, path) and whether a category page exists (active, of
-- the category and of every ancestor, so an insert or delete counts too).
CREATE FUNCTION categories_notify_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM new_rows n JOIN old_rows o ON o.id = n.id
             WHERE (n.slug, n.name, n.path, n.active) IS DISTINCT FROM (o.slug, o.name, o.path, o.active)) THEN
    PERFORM pg_notify('catalog_changes', 'products:*');
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER categories_notify_insert AFTER INSERT ON categories
FOR EACH STATEMENT EXECUTE FUNCTION catalog_notify_all_products();
CREATE TRIGGER categories_notify_update AFTER UPDATE ON categories
REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION categories_notify_update();
CREATE TRIGGER categories_notify_delete AFTER DELETE ON categories
FOR EACH STATEMENT EXECUTE FUNCTION catalog_notify_all_products();
