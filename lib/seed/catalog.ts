/**
 * Vocabulary of the generated catalog: the category tree (three levels), with for each leaf
 * the product types it sells and a price range, plus per top-level category the modifiers,
 * colours, materials, description sentences and attribute shapes that fit it.
 */
import type { Rng } from "@/lib/random";

export interface LeafDef {
  slug: string;
  name: string;
  /** Relative share of generated products. */
  weight: number;
  /** Typical price range in whole dollars (new condition). */
  price: [number, number];
  /** Product types; for books, the subtitle after "Title: ". May contain {place}, {n}, {person}, {series}. */
  items: string[];
  mods?: string[];
  suffixes?: string[];
  /** Chance that a title gets one of `suffixes` (default 0.6). */
  suffixChance?: number;
  /** Materials that fit the leaf (else the mid-level's, else the top-level's). */
  materials?: string[];
  /** Extra description sentences specific to the leaf. */
  notes?: string[];
}

export interface MidDef {
  slug: string;
  name: string;
  materials?: string[];
  children: LeafDef[];
}

export type Attributes = Record<string, string | number | boolean>;

export interface TopDef {
  slug: string;
  name: string;
  /** Background colour of the placeholder image. */
  color: string;
  kind: "goods" | "book";
  /** Adjectives that read well at the start of a title ("Classic Cast Iron Skillet"). */
  mods: string[];
  /** Model-line names, used only right after the brand ("Voltix Pro ..."). */
  lines: string[];
  colors: string[];
  materials: string[];
  /** Description sentences; see `fill` for the placeholders. */
  intro: string[];
  details: string[];
  attributes: (rng: Rng, ctx: { color: string; material: string; item: string; mid: string; leaf: string }) => Attributes;
  children: MidDef[];
}

function leaf(
  slug: string,
  name: string,
  price: [number, number],
  items: string,
  opts: { weight?: number; mods?: string; suffixes?: string; suffixChance?: number; materials?: string; notes?: string[] } = {},
): LeafDef {
  return {
    slug,
    name,
    price,
    weight: opts.weight ?? 1,
    items: items.split("|"),
    mods: opts.mods?.split("|"),
    suffixes: opts.suffixes?.split("|"),
    suffixChance: opts.suffixChance,
    materials: opts.materials?.split("|"),
    notes: opts.notes,
  };
}

function mid(slug: string, name: string, children: LeafDef[], materials?: string): MidDef {
  return { slug, name, children, materials: materials?.split("|") };
}

const grams = (rng: Rng, min: number, max: number) => Math.round(rng.logUniform(min, max));

export const TOP_CATEGORIES: TopDef[] = [
  {
    slug: "electronics",
    name: "Electronics",
    color: "#2f5d8a",
    kind: "goods",
    mods: ["Compact", "Premium", "Essential"],
    lines: ["Pro", "Max", "Lite", "Plus", "Ultra", "Air", "Elite", "Studio", "Neo", "Wave", "X2", "S3"],
    colors: ["Black", "White", "Silver", "Space Gray", "Midnight Blue", "Graphite", "Sage Green", "Rose Gold"],
    materials: ["Aluminum", "ABS Plastic", "Polycarbonate", "Magnesium Alloy", "Silicone", "Glass"],
    intro: [
      "The {brand} {item}: dependable everyday performance in a {color} finish.",
      "Meet the {item}, with a {material} build light enough to carry everywhere.",
      "Designed for work and play, with clean design and modern connectivity.",
      "A thoughtfully engineered {item} with a sturdy {material} housing.",
    ],
    details: [
      "Setup takes minutes and firmware updates arrive over the air.",
      "It ships with a USB-C cable and a quick-start guide.",
      "Covered by a limited manufacturer warranty.",
      "Low-power components keep it cool and quiet under load.",
      "Compatible with current iOS, Android, Windows and macOS devices.",
    ],
    attributes: (rng, { color, material }) => ({
      color,
      material,
      weight_g: grams(rng, 30, 4000),
      wireless: rng.chance(0.6),
      warranty_months: rng.pick([12, 12, 24, 36]),
    }),
    children: [
      mid("audio", "Audio", [
        leaf("headphones", "Headphones", [25, 450],
          "Wireless Noise-Cancelling Headphones|Over-Ear Studio Headphones|On-Ear Bluetooth Headphones|Kids' Volume-Limited Headphones|Open-Back Reference Headphones|Foldable Travel Headphones|Gaming Headphones with Mic",
          { weight: 3, notes: ["Memory-foam ear cushions stay comfortable through long listening sessions.", "Up to 30 hours of playback on a single charge."] }),
        leaf("earbuds", "Earbuds", [15, 300],
          "True Wireless Earbuds|Sport Earbuds with Ear Hooks|Noise-Cancelling Earbuds|Wired In-Ear Monitors|Sleep Earbuds",
          { weight: 2, notes: ["The pocket-sized charging case adds three extra charges."] }),
        leaf("bluetooth_speakers", "Bluetooth Speakers", [20, 400],
          "Portable Bluetooth Speaker|Waterproof Shower Speaker|Party Speaker with Lights|Mini Clip-On Speaker|Outdoor Rugged Speaker"),
        leaf("soundbars", "Soundbars & Home Theater", [80, 1200],
          "2.1 Channel Soundbar|Dolby Atmos Soundbar|Compact TV Soundbar|Wireless Subwoofer|Home Theater Receiver"),
      ]),
      mid("computers", "Computers & Accessories", [
        leaf("laptops", "Laptops", [280, 3200],
          "14-inch Ultrabook Laptop|15.6-inch Laptop|2-in-1 Convertible Laptop|Gaming Laptop|Chromebook 11.6-inch|Creator Laptop 16-inch",
          { suffixes: " 8GB RAM 256GB SSD| 16GB RAM 512GB SSD| 32GB RAM 1TB SSD" }),
        leaf("monitors", "Monitors", [110, 1500],
          "27-inch 4K Monitor|24-inch IPS Monitor|34-inch Ultrawide Curved Monitor|Portable USB-C Monitor|32-inch QHD Gaming Monitor"),
        leaf("keyboards_mice", "Keyboards & Mice", [12, 220],
          "Mechanical Keyboard|Wireless Keyboard and Mouse Combo|Ergonomic Vertical Mouse|Low-Profile Bluetooth Keyboard|Gaming Mouse|Trackball Mouse"),
        leaf("computer_accessories", "Computer Accessories", [8, 180],
          "USB-C Hub 7-in-1|Aluminum Laptop Stand|1080p Webcam|External SSD 1TB|Thunderbolt Docking Station|Laptop Sleeve 14-inch"),
      ]),
      mid("cell_phones", "Cell Phones & Accessories", [
        leaf("smartphones", "Smartphones", [120, 1400],
          "Unlocked 5G Smartphone 128GB|Unlocked Smartphone 256GB|Rugged Smartphone|Compact Smartphone 64GB|Foldable Smartphone", { materials: "Aluminum|Glass|Titanium" }),
        leaf("phone_cases", "Cases & Screen Protectors", [6, 60],
          "Clear Phone Case|Shockproof Phone Case|Leather Wallet Phone Case|Tempered Glass Screen Protector (3 Pack)|Silicone Phone Case with MagSafe", { materials: "Silicone|TPU|Leather|Polycarbonate|Tempered Glass" }),
        leaf("chargers_cables", "Chargers & Cables", [6, 120],
          "65W USB-C Charger|Braided USB-C Cable 6ft|Wireless Charging Pad|3-in-1 Charging Stand|Power Bank 20000mAh|Dual USB Car Charger", { materials: "Braided Nylon|ABS Plastic|Aluminum" }),
      ]),
      mid("cameras", "Cameras & Photo", [
        leaf("digital_cameras", "Digital Cameras", [150, 3500],
          "Mirrorless Camera Body|Mirrorless Camera with 18-55mm Kit Lens|Compact Point-and-Shoot Camera|4K Action Camera|Instant Film Camera|Full-Frame Mirrorless Camera"),
        leaf("camera_lenses", "Lenses", [120, 2400],
          "50mm f/1.8 Prime Lens|24-70mm f/2.8 Zoom Lens|70-200mm Telephoto Lens|10-18mm Wide-Angle Lens|100mm Macro Lens"),
        leaf("tripods", "Tripods & Supports", [15, 400],
          "Carbon Fiber Travel Tripod|Aluminum Tripod with Ball Head|Flexible Mini Tripod|3-Axis Gimbal Stabilizer|Video Monopod"),
      ], "Magnesium Alloy|Aluminum|Polycarbonate|Carbon Fiber"),
      mid("smart_home", "Smart Home", [
        leaf("smart_lighting", "Smart Lighting", [10, 200],
          "Smart LED Bulb (4 Pack)|Smart Light Strip 16ft|Smart Light Switch|Color Smart Bulb|Smart Floor Lamp"),
        leaf("security_cameras", "Security Cameras", [25, 450],
          "Wireless Outdoor Security Camera|Video Doorbell|Indoor Pet Camera|Floodlight Camera|Battery Security Camera (2 Pack)"),
        leaf("smart_plugs", "Smart Plugs & Hubs", [10, 150],
          "Smart Plug (4 Pack)|Smart Power Strip|Smart Home Hub|Outdoor Smart Plug|Smart Thermostat"),
        leaf("smart_speakers", "Smart Speakers & Displays", [30, 300],
          "Smart Speaker with Voice Assistant|8-inch Smart Display|Mini Smart Speaker|Smart Alarm Clock"),
      ]),
    ],
  },
  {
    slug: "home_kitchen",
    name: "Home & Kitchen",
    color: "#b5651d",
    kind: "goods",
    mods: ["Classic", "Modern", "Essential", "Premium", "Everyday", "Heritage", "Signature"],
    lines: [],
    colors: ["Black", "White", "Cream", "Charcoal", "Sage", "Terracotta", "Navy", "Natural"],
    materials: ["Cast Iron", "Stainless Steel", "Ceramic", "Stoneware", "Glass", "Cotton", "Linen", "Bamboo", "Oak"],
    intro: [
      "{material} quality for the everyday kitchen and home: the {brand} {item}.",
      "A {color} {item}, made to be used daily and handed down.",
      "Built from {material} to balance good looks with real-world durability.",
      "A customer favourite for busy households.",
    ],
    details: [
      "Easy to clean and designed to last for years.",
      "Thoughtful details make it a pleasure to use every day.",
      "Makes a great housewarming or wedding gift.",
      "Ships in recyclable, plastic-free packaging.",
    ],
    attributes: (rng, { color, material }) => ({
      color,
      material,
      weight_g: grams(rng, 150, 9000),
      dishwasher_safe: rng.chance(0.55),
    }),
    children: [
      mid("cookware", "Cookware", [
        leaf("skillets", "Skillets & Frying Pans", [15, 260],
          "Cast Iron Skillet|Nonstick Frying Pan|Stainless Steel Skillet|Carbon Steel Skillet|Ceramic Nonstick Skillet|Cast Iron Grill Pan",
          {
            weight: 3,
            suffixes: " 8-inch| 10-inch| 12-inch| 12-inch with Lid| Set of 2 (8 and 10-inch)",
            notes: ["Pre-seasoned and ready to use on gas, electric, induction or campfire.", "The skillet heats evenly from edge to edge for a perfect sear."], materials: "Cast Iron|Carbon Steel|Stainless Steel|Hard-Anodized Aluminum" }),
        leaf("pots_saucepans", "Pots & Saucepans", [20, 350],
          "Stainless Steel Saucepan|Stock Pot 8-Quart|Nonstick Saucepan with Lid|Pasta Pot with Strainer|Tri-Ply Saute Pan", { materials: "Stainless Steel|Hard-Anodized Aluminum|Copper|Enameled Steel" }),
        leaf("dutch_ovens", "Dutch Ovens", [35, 420],
          "Enameled Cast Iron Dutch Oven 5.5-Quart|Cast Iron Dutch Oven 6-Quart|Round Cocotte 3-Quart|Oval Dutch Oven 7-Quart", { materials: "Enameled Cast Iron|Cast Iron" }),
        leaf("bakeware", "Bakeware", [8, 120],
          "Nonstick Baking Sheet Set|Muffin Pan 12-Cup|Glass Baking Dish 9x13|Springform Pan 9-inch|Bread Loaf Pan|Silicone Baking Mat (2 Pack)", { materials: "Aluminized Steel|Glass|Silicone|Ceramic" }),
      ]),
      mid("kitchen_appliances", "Small Kitchen Appliances", [
        leaf("coffee_makers", "Coffee Makers", [25, 1400],
          "12-Cup Programmable Coffee Maker|Espresso Machine|Pour-Over Coffee Maker|Single-Serve Coffee Maker|Burr Coffee Grinder|Cold Brew Coffee Maker|French Press 34oz",
          { weight: 2 }),
        leaf("blenders", "Blenders & Juicers", [25, 600],
          "High-Speed Blender|Personal Blender|Immersion Hand Blender|Slow Masticating Juicer|Food Processor 10-Cup"),
        leaf("toasters", "Toasters & Ovens", [20, 400],
          "2-Slice Toaster|4-Slice Toaster|Countertop Convection Toaster Oven|Air Fryer Toaster Oven"),
        leaf("air_fryers", "Air Fryers & Multicookers", [40, 350],
          "Air Fryer 6-Quart|Dual-Basket Air Fryer|Electric Pressure Cooker 6-Quart|Slow Cooker 7-Quart|Rice Cooker 10-Cup"),
      ], "Stainless Steel|BPA-Free Plastic|Brushed Aluminum|Glass"),
      mid("tableware", "Dining & Tableware", [
        leaf("dinnerware", "Dinnerware", [15, 300],
          "Stoneware Dinnerware Set for 4|Porcelain Dinner Plates (Set of 6)|Ceramic Cereal Bowls (Set of 4)|Serving Platter", { materials: "Stoneware|Porcelain|Ceramic|Bone China" }),
        leaf("drinkware", "Drinkware", [8, 120],
          "Insulated Tumbler 20oz|Wine Glasses (Set of 4)|Ceramic Coffee Mug Set|Glass Water Bottle|Double-Wall Espresso Cups", { materials: "Glass|Stainless Steel|Ceramic|Borosilicate Glass" }),
        leaf("cutlery", "Cutlery & Knives", [15, 350],
          "Stainless Steel Flatware Set (20 Piece)|Chef's Knife 8-inch|Kitchen Knife Block Set|Steak Knives (Set of 6)|Bamboo Cutting Board", { materials: "Stainless Steel|High-Carbon Steel|Bamboo|Walnut" }),
      ]),
      mid("bedding", "Bedding", [
        leaf("sheets", "Sheets & Pillowcases", [20, 250],
          "Percale Sheet Set|Bamboo Sheet Set|Linen Duvet Cover|Flannel Sheet Set|Sateen Pillowcases (Set of 2)",
          { suffixes: " Queen| King| Full| Twin" }),
        leaf("comforters", "Comforters & Quilts", [35, 400],
          "Down Alternative Comforter|Cotton Quilt|Weighted Blanket 15 lb|All-Season Duvet Insert"),
        leaf("pillows", "Pillows", [12, 150],
          "Memory Foam Pillow|Down Pillow (Set of 2)|Body Pillow|Cooling Gel Pillow"),
      ], "Cotton|Linen|Bamboo Viscose|Microfiber|Organic Cotton"),
      mid("home_decor", "Home Decor", [
        leaf("lamps", "Lamps & Lighting", [18, 400],
          "Table Lamp|Arc Floor Lamp|LED Desk Lamp|Bedside Lamp with USB Port|Ceramic Table Lamp", { materials: "Ceramic|Brass|Glass|Oak" }),
        leaf("wall_art", "Wall Art & Frames", [10, 300],
          "Framed Canvas Print|Picture Frame Set (7 Pack)|Botanical Print Set|Round Wall Mirror", { materials: "Oak|Canvas|Aluminum|Glass" }),
        leaf("candles", "Candles & Home Fragrance", [6, 90],
          "Soy Wax Candle|Reed Diffuser|Three-Wick Candle|Essential Oil Diffuser", { materials: "Soy Wax|Coconut Wax|Glass|Ceramic" }),
        leaf("rugs", "Rugs", [25, 900],
          "Washable Area Rug 5x7|Jute Area Rug 8x10|Runner Rug 2x8|Shag Area Rug 6x9", { materials: "Jute|Wool|Cotton|Polypropylene" }),
      ]),
    ],
  },
  {
    slug: "sports_outdoors",
    name: "Sports & Outdoors",
    color: "#3c7d4f",
    kind: "goods",
    mods: ["Pro", "Elite", "Performance", "All-Weather"],
    lines: ["Summit", "Endurance", "Apex", "Velocity", "Ridge", "Tempo"],
    colors: ["Black", "Forest Green", "Orange", "Slate Blue", "Red", "Olive", "Gray", "Volt Yellow"],
    materials: ["Nylon", "Polyester", "Aluminum", "Carbon Fiber", "Rubber", "Mesh", "Recycled Polyester", "Steel"],
    intro: [
      "Built for people who train, explore and compete: the {brand} {item}.",
      "Durable {material} construction in {color}, ready to go anywhere.",
      "Lightweight, tough and made to keep up on every outing.",
      "Field-tested by athletes and ready for your next adventure.",
    ],
    details: [
      "Reinforced seams and quality hardware stand up to hard use.",
      "Packs down small for travel.",
      "Backed by a lifetime guarantee against manufacturing defects.",
      "Breathable where it counts and weather-ready everywhere else.",
    ],
    attributes: (rng, { color, material }) => ({
      color,
      material,
      weight_g: grams(rng, 40, 25000),
      waterproof: rng.chance(0.4),
    }),
    children: [
      mid("running", "Running", [
        leaf("running_shoes", "Running Shoes", [45, 260],
          "Men's Road Running Shoes|Women's Road Running Shoes|Trail Running Shoes|Cushioned Running Shoes|Lightweight Racing Shoes|Stability Running Shoes|Waterproof Trail Running Shoes",
          { weight: 3, notes: ["A responsive foam midsole and grippy outsole make these running shoes ready for daily miles.", "True to size with a roomy toe box."], materials: "Engineered Mesh|Knit|Synthetic|Recycled Polyester" }),
        leaf("running_apparel", "Running Apparel", [12, 150],
          "Lightweight Running Jacket|Running Shorts with Liner|Compression Running Tights|Moisture-Wicking Running Shirt|Running Socks (3 Pack)", { materials: "Polyester|Nylon|Merino Wool|Recycled Polyester" }),
        leaf("running_accessories", "Running Accessories", [8, 450],
          "GPS Running Watch|Hydration Running Vest|Running Belt|Reflective Running Vest|Handheld Water Bottle", { materials: "Nylon|Silicone|Polycarbonate" }),
      ]),
      mid("camping_hiking", "Camping & Hiking", [
        leaf("tents", "Tents", [60, 900],
          "2-Person Backpacking Tent|4-Person Dome Tent|Ultralight 1-Person Tent|6-Person Family Cabin Tent|Rooftop Tent"),
        leaf("sleeping_bags", "Sleeping Bags & Pads", [25, 500],
          "Down Sleeping Bag 20F|Synthetic Sleeping Bag 30F|Self-Inflating Sleeping Pad|Ultralight Sleeping Pad|Camping Pillow"),
        leaf("hiking_backpacks", "Backpacks", [30, 400],
          "Hiking Backpack 40L|Daypack 22L|Backpacking Pack 65L|Hydration Pack 10L"),
        leaf("camp_kitchen", "Camp Kitchen", [10, 300],
          "Backpacking Stove|Camping Cookware Set|Insulated Camp Mug|Portable Cooler 45-Quart|Squeeze Water Filter"),
      ], "Ripstop Nylon|Polyester|Aluminum|Recycled Polyester"),
      mid("fitness", "Exercise & Fitness", [
        leaf("weights", "Dumbbells & Weights", [15, 900],
          "Adjustable Dumbbells 52.5 lb|Cast Iron Kettlebell|Hex Dumbbell Pair|Olympic Barbell|Weight Plate Set", { materials: "Cast Iron|Steel|Rubber-Coated Steel|Neoprene" }),
        leaf("yoga", "Yoga", [10, 150],
          "Non-Slip Yoga Mat 6mm|Cork Yoga Block (2 Pack)|Yoga Strap|Travel Yoga Mat|Meditation Cushion", { materials: "Natural Rubber|TPE|Cork|Cotton" }),
        leaf("resistance_bands", "Bands & Small Equipment", [8, 90],
          "Resistance Band Set|Loop Bands (5 Pack)|Pull-Up Assist Band|Speed Jump Rope|Ab Roller Wheel", { materials: "Latex|Fabric|Steel|Rubber" }),
        leaf("cardio_equipment", "Cardio Equipment", [120, 2800],
          "Folding Treadmill|Indoor Exercise Bike|Rowing Machine|Elliptical Trainer|Under-Desk Walking Pad", { materials: "Steel|Aluminum" }),
      ]),
      mid("cycling", "Cycling", [
        leaf("bikes", "Bikes", [250, 4500],
          "Hybrid Bike|Gravel Bike|Hardtail Mountain Bike|Electric Commuter Bike|Road Bike"),
        leaf("bike_helmets", "Helmets", [25, 250],
          "Road Bike Helmet|Mountain Bike Helmet|Kids' Bike Helmet|Commuter Helmet with Light"),
        leaf("bike_accessories", "Bike Accessories", [8, 200],
          "Bike Light Set|Floor Pump with Gauge|U-Lock with Cable|Saddle Bag|Bike Computer with GPS|Water Bottle Cage"),
      ], "Aluminum|Carbon Fiber|Steel|Polycarbonate"),
      mid("team_sports", "Team Sports", [
        leaf("soccer", "Soccer", [10, 200],
          "Soccer Ball Size 5|Soccer Cleats|Shin Guards|Pop-Up Soccer Goal|Goalkeeper Gloves"),
        leaf("basketball", "Basketball", [15, 600],
          "Indoor/Outdoor Basketball|Portable Basketball Hoop|Basketball Shoes|Basketball Net"),
        leaf("baseball", "Baseball & Softball", [10, 400],
          "Baseball Glove 11.5-inch|Aluminum Baseball Bat|Batting Helmet|Baseballs (12 Pack)|Catcher's Gear Set"),
      ], "Synthetic Leather|Leather|Rubber|Aluminum|Nylon"),
    ],
  },
  {
    slug: "books",
    name: "Books",
    color: "#7a4e9c",
    kind: "book",
    mods: [],
    lines: [],
    colors: [],
    materials: [],
    intro: [
      "From {author} comes a story that readers will not forget.",
      "{author} returns with a book set between {place} and the open sea.",
      "A beautifully written book by {author}, praised by critics and readers alike.",
      "An unforgettable journey that begins in {place}.",
      "{author} writes with warmth, wit and a sharp eye for detail.",
    ],
    details: [
      "Perfect for book clubs, with a reader's guide at the back.",
      "An instant bestseller and a favourite of independent booksellers.",
      "Includes a new afterword by the author.",
      "Translated into more than twenty languages.",
      "Ideal for a long weekend or a long flight.",
    ],
    attributes: (rng) => ({
      author: `${rng.pick(FIRST_NAMES)} ${rng.pick(LAST_NAMES)}`,
      format: rng.pick(["Paperback", "Paperback", "Hardcover", "Mass Market Paperback"]),
      pages: rng.int(96, 720),
      language: rng.weighted(["English", "Spanish", "French"], [90, 6, 4]),
      weight_g: grams(rng, 150, 1400),
      illustrated: rng.chance(0.2),
    }),
    children: [
      mid("fiction", "Fiction", [
        leaf("mystery_thriller", "Mystery & Thriller", [6, 35],
          "A Mystery Novel|A Thriller|A Detective Novel|A Psychological Thriller|A Cozy Mystery|A Novel of Suspense",
          { weight: 2, notes: ["A twisting, page-turning novel with a final chapter you will not see coming."] }),
        leaf("science_fiction_fantasy", "Science Fiction & Fantasy", [6, 40],
          "A Science Fiction Novel|A Fantasy Novel|Book One of the {series} Trilogy|A Space Opera|An Epic Fantasy Novel",
          { weight: 2 }),
        leaf("literary_fiction", "Literary Fiction", [8, 35],
          "A Novel|A Novel in Stories|Stories|A Family Saga"),
        leaf("romance", "Romance", [5, 25],
          "A Romance Novel|A Small-Town Romance|A Historical Romance|A Romantic Comedy"),
      ]),
      mid("nonfiction", "Nonfiction", [
        leaf("biographies", "Biographies & Memoirs", [9, 45],
          "A Memoir|The Life of {person}|A Biography|Notes from an Unlikely Life"),
        leaf("history", "History", [10, 60],
          "A History of {place}|The Untold Story of {place}|{place} and the Making of the Modern World|A New History"),
        leaf("business_money", "Business & Money", [10, 50],
          "Lessons in Leadership|A Practical Guide to Personal Finance|How Great Teams Work|The Founder's Playbook|Building a Business That Lasts"),
        leaf("self_help", "Self-Help", [8, 35],
          "Small Habits, Big Changes|A Guide to Calm|How to Think Clearly|The Art of Rest"),
      ]),
      mid("childrens_books", "Children's Books", [
        leaf("picture_books", "Picture Books", [5, 25],
          "A Picture Book|A Bedtime Story|A Counting Book|A Lift-the-Flap Book"),
        leaf("middle_grade", "Middle Grade", [6, 25],
          "An Adventure Novel|A Middle-Grade Mystery|A Middle-Grade Fantasy Novel|A Story of Friendship"),
        leaf("young_adult", "Young Adult", [8, 30],
          "A Young Adult Novel|A YA Fantasy Novel|A Dystopian Novel|A Coming-of-Age Novel"),
      ]),
      mid("cookbooks", "Cookbooks, Food & Wine", [
        leaf("baking_cookbooks", "Baking", [12, 45],
          "Breads, Cakes and Pastries|Weekend Baking|A Baker's Handbook|100 Cookies for Every Occasion"),
        leaf("world_cuisine", "World Cuisine", [15, 50],
          "Recipes from {place}|Home Cooking from {place}|A Culinary Journey Through {place}"),
        leaf("healthy_cooking", "Healthy Cooking", [12, 40],
          "Quick Weeknight Vegetarian Meals|The Plant-Based Kitchen|Meal Prep Made Simple|One-Pan Dinners"),
      ]),
      mid("comics_graphic_novels", "Comics & Graphic Novels", [
        leaf("graphic_novels", "Graphic Novels", [10, 50],
          "A Graphic Novel|Volume {n}: A Graphic Novel|The Complete Collection"),
        leaf("manga", "Manga", [8, 20], "Vol. {n}|Omnibus Edition Vol. {n}|Deluxe Edition Vol. {n}"),
      ]),
    ],
  },
  {
    slug: "toys_games",
    name: "Toys & Games",
    color: "#d1495b",
    kind: "goods",
    mods: ["Deluxe", "Classic", "Junior", "Mega", "Mini"],
    lines: ["Adventure", "Explorer", "Discovery"],
    colors: ["Multicolor", "Red", "Blue", "Yellow", "Pink", "Green", "Purple", "Natural Wood"],
    materials: ["ABS Plastic", "Wood", "Cardboard", "Plush Polyester", "Silicone", "Recycled Plastic"],
    intro: [
      "Hours of play in one box: the {brand} {item}.",
      "Loved by kids and grown-ups alike.",
      "A {color} {item} that sparks imagination and creative play.",
      "Made from child-safe {material} and built to be played with hard.",
    ],
    details: [
      "Tested to meet ASTM and EN71 toy safety standards.",
      "Comes in a gift-ready box.",
      "Great for family game night, birthdays and holidays.",
      "Encourages problem solving, fine motor skills and teamwork.",
    ],
    attributes: (rng, { color, material }) => ({
      color,
      material,
      weight_g: grams(rng, 50, 12000),
      age_range: rng.pick(["3+", "4+", "6+", "8+", "10+", "12+", "14+"]),
      batteries_required: rng.chance(0.25),
    }),
    children: [
      mid("building_toys", "Building Toys", [
        leaf("building_sets", "Building Sets", [10, 350],
          "City Fire Station Building Set|Space Shuttle Building Kit|Medieval Castle Brick Set|Race Car Building Set|Creative Brick Box|Pirate Ship Building Set|Dinosaur Park Brick Set",
          {
            weight: 3,
            suffixes: " - LEGO-Compatible| (LEGO-Compatible)| 500 Pieces, LEGO-Compatible| 1,200 Pieces| - Compatible with LEGO Bricks",
            suffixChance: 0.9,
            notes: ["The bricks are compatible with LEGO and other major brick brands.", "Step-by-step illustrated instructions included."], materials: "ABS Plastic|Recycled Plastic" }),
        leaf("magnetic_tiles", "Magnetic Tiles", [20, 150],
          "Magnetic Tiles 60-Piece Set|Magnetic Building Blocks|Magnetic Marble Run Tiles|Magnetic Tiles Starter Set", { materials: "ABS Plastic" }),
        leaf("marble_runs", "Marble Runs & Construction Kits", [15, 200],
          "Marble Run 150-Piece Set|Wooden Marble Run|Gear Construction Kit|Engineering Building Kit", { materials: "Wood|ABS Plastic" }),
      ]),
      mid("games_puzzles", "Games & Puzzles", [
        leaf("board_games", "Board Games", [12, 120],
          "Strategy Board Game|Family Board Game|Cooperative Board Game|Party Game|Chess Set with Folding Board|Classic Word Game",
          { weight: 2 }),
        leaf("jigsaw_puzzles", "Jigsaw Puzzles", [8, 60],
          "1000-Piece Jigsaw Puzzle|500-Piece Jigsaw Puzzle|Kids' 100-Piece Floor Puzzle|3D Puzzle"),
        leaf("card_games", "Card Games", [5, 40],
          "Card Game for Families|Trick-Taking Card Game|Playing Cards (2 Decks)|Trading Card Starter Deck"),
      ], "Cardboard|Wood|Recycled Paperboard"),
      mid("dolls_figures", "Dolls & Action Figures", [
        leaf("dolls", "Dolls & Dollhouses", [12, 250],
          "Fashion Doll|Wooden Dollhouse|Baby Doll with Accessories|Doll Clothes Set", { materials: "Vinyl|Wood|Cotton" }),
        leaf("action_figures", "Action Figures", [10, 120],
          "Superhero Action Figure 12-inch|Robot Action Figure|Dinosaur Figure Set|Space Explorer Figure Set", { materials: "PVC|ABS Plastic" }),
        leaf("plush", "Stuffed Animals & Plush", [8, 80],
          "Teddy Bear 16-inch|Plush Dinosaur|Weighted Plush Animal|Giant Plush Unicorn", { materials: "Plush Polyester|Organic Cotton" }),
      ]),
      mid("outdoor_play", "Outdoor Play", [
        leaf("scooters", "Scooters & Ride-Ons", [30, 400],
          "Kids' Kick Scooter|3-Wheel Scooter|Electric Scooter for Kids|Ride-On Car"),
        leaf("kites", "Kites & Flying Toys", [8, 60],
          "Diamond Kite|Stunt Kite|Foam Glider Set|Flying Disc"),
        leaf("water_play", "Water Play", [10, 200],
          "Water Blaster (2 Pack)|Inflatable Pool|Splash Pad Sprinkler|Water Table"),
      ], "Aluminum|Steel|Nylon|PVC"),
      mid("stem_toys", "STEM & Educational Toys", [
        leaf("science_kits", "Science Kits", [15, 90],
          "Chemistry Science Kit|Crystal Growing Kit|Volcano Science Kit|Microscope Kit for Kids", { materials: "Glass|ABS Plastic|Cardboard" }),
        leaf("coding_robots", "Coding Robots", [40, 400],
          "Programmable Coding Robot|Robot Building Kit|Coding Board Game|Screen-Free Coding Robot"),
        leaf("learning_toys", "Learning Toys", [10, 80],
          "Wooden Alphabet Puzzle|Counting Bears Set|Shape Sorter|Interactive Globe"),
      ], "ABS Plastic|Wood|Cardboard"),
    ],
  },
  {
    slug: "fashion",
    name: "Fashion",
    color: "#c0587e",
    kind: "goods",
    mods: ["Classic", "Everyday", "Signature", "Heritage", "Modern", "Relaxed"],
    lines: [],
    colors: ["Black", "Navy", "Camel", "Ivory", "Olive", "Burgundy", "Heather Gray", "Denim Blue"],
    materials: ["Cotton", "Organic Cotton", "Linen", "Merino Wool", "Silk", "Recycled Polyester"],
    intro: [
      "A wardrobe staple you will reach for again and again.",
      "The {brand} {item} in {color}, with a timeless cut.",
      "Crafted from {material} to look good and feel even better.",
      "Effortless style that dresses up or down with ease.",
    ],
    details: [
      "Free exchanges on sizing within 30 days.",
      "See the size chart for an exact fit.",
      "Responsibly made in a certified factory.",
      "Finished with carefully matched hardware and stitching.",
    ],
    attributes: (rng, { color, material }) => ({
      color,
      material,
      size: rng.pick(["XS", "S", "M", "L", "XL", "XXL", "One Size"]),
      weight_g: grams(rng, 20, 2500),
      machine_washable: rng.chance(0.5),
    }),
    children: [
      mid("womens_clothing", "Women's Clothing", [
        leaf("dresses", "Dresses", [20, 250], "Wrap Midi Dress|Linen Shirt Dress|Knit Sweater Dress|Floral Maxi Dress|Cocktail Dress"),
        leaf("womens_tops", "Tops & Blouses", [12, 120],
          "Silk Blouse|Cotton Crewneck T-Shirt|Cashmere Sweater|Linen Button-Down Shirt|Ribbed Tank Top"),
        leaf("womens_outerwear", "Coats & Jackets", [45, 600], "Wool Coat|Quilted Puffer Jacket|Trench Coat|Denim Jacket|Rain Jacket", { materials: "Wool|Down|Nylon|Cotton Twill|Denim" }),
      ]),
      mid("mens_clothing", "Men's Clothing", [
        leaf("mens_shirts", "Shirts", [15, 150], "Oxford Button-Down Shirt|Flannel Shirt|Performance Polo|Merino Wool T-Shirt|Linen Shirt"),
        leaf("mens_pants", "Pants & Jeans", [25, 200], "Slim Fit Jeans|Chino Pants|Straight Leg Jeans|Hiking Pants|Corduroy Trousers", { materials: "Denim|Cotton Twill|Corduroy|Nylon" }),
        leaf("mens_outerwear", "Coats & Jackets", [50, 700], "Down Parka|Waxed Cotton Jacket|Fleece Jacket|Wool Peacoat|Softshell Jacket", { materials: "Wool|Down|Waxed Cotton|Fleece|Nylon" }),
      ]),
      mid("shoes", "Shoes", [
        leaf("sneakers", "Sneakers", [35, 250],
          "Canvas Low-Top Sneakers|Leather Court Sneakers|Knit Walking Shoes|Retro Running Sneakers|Slip-On Sneakers", { weight: 2 }),
        leaf("boots", "Boots", [50, 450],
          "Chelsea Boots|Waterproof Hiking Boots|Leather Ankle Boots|Winter Snow Boots|Steel Toe Work Boots"),
        leaf("sandals", "Sandals", [15, 150], "Leather Slide Sandals|Sport Sandals|Flip-Flops|Platform Sandals"),
        leaf("dress_shoes", "Dress Shoes", [60, 400], "Leather Oxford Shoes|Penny Loafers|Suede Derby Shoes|Pointed-Toe Pumps"),
      ], "Leather|Suede|Canvas|Knit|Synthetic"),
      mid("jewelry", "Jewelry & Watches", [
        leaf("necklaces", "Necklaces", [15, 2500],
          "Sterling Silver Pendant Necklace|14k Gold Chain Necklace|Pearl Strand Necklace|Diamond Solitaire Pendant"),
        leaf("earrings", "Earrings", [10, 1800],
          "Gold Hoop Earrings|Sterling Silver Stud Earrings|Pearl Drop Earrings|Diamond Stud Earrings 0.5 ct"),
        leaf("rings", "Rings", [15, 4000], "Stackable Gold Ring|Sterling Silver Band|Diamond Engagement Ring|Birthstone Ring"),
        leaf("watches", "Watches & Bracelets", [15, 1500], "Leather Strap Watch|Tennis Bracelet|Beaded Bracelet Set|Automatic Dive Watch"),
      ], "Sterling Silver|14k Gold|Gold Vermeil|Stainless Steel|Platinum"),
      mid("bags_accessories", "Handbags & Accessories", [
        leaf("handbags", "Handbags", [30, 800], "Leather Tote Bag|Crossbody Bag|Canvas Weekender Bag|Mini Shoulder Bag", { materials: "Leather|Vegan Leather|Canvas|Nylon" }),
        leaf("wallets", "Wallets", [15, 200], "Slim Leather Wallet|RFID-Blocking Bifold Wallet|Card Holder|Zip-Around Wallet", { materials: "Leather|Vegan Leather|Nylon" }),
        leaf("sunglasses", "Sunglasses", [15, 350], "Polarized Aviator Sunglasses|Round Sunglasses|Sport Sunglasses|Cat-Eye Sunglasses", { materials: "Acetate|Metal|Polycarbonate" }),
        leaf("belts_hats", "Belts & Hats", [12, 120], "Leather Belt|Wool Fedora|Baseball Cap|Knit Beanie|Wide-Brim Sun Hat", { materials: "Leather|Wool|Cotton|Straw" }),
      ]),
    ],
  },
  {
    slug: "beauty",
    name: "Beauty & Personal Care",
    color: "#c98a6b",
    kind: "goods",
    mods: ["Pure", "Botanical", "Advanced", "Gentle"],
    lines: ["Radiance", "Hydra", "Glow", "Calm"],
    colors: ["Clear", "Nude", "Rose", "Berry", "Coral", "Light", "Medium", "Deep"],
    materials: ["Glass Bottle", "Recycled Plastic Tube", "Aluminum Tin", "Pump Bottle", "Refillable Jar"],
    intro: [
      "Formulated for everyday use on all skin and hair types.",
      "Clean, effective and gentle: meet the {brand} {item}.",
      "A cult favourite that leaves you looking and feeling your best.",
      "Dermatologist-tested, paraben-free and easy to fit into any routine.",
    ],
    details: [
      "Cruelty-free and never tested on animals.",
      "Fragrance-free formula suitable for sensitive skin.",
      "Packaged in recyclable materials.",
      "Results you can see in as little as two weeks.",
    ],
    attributes: (rng, { color, material, mid }) => ({
      ...(mid === "makeup" ? { shade: color } : { scent: rng.pick(["Unscented", "Citrus", "Lavender", "Sandalwood", "Fresh", "Vanilla"]) }),
      material,
      ...(mid === "makeup" || mid === "hair_care" || mid === "shaving_grooming" ? {} : { volume_ml: rng.pick([15, 30, 50, 75, 100, 150, 250, 400]) }),
      weight_g: grams(rng, 20, 900),
      vegan: rng.chance(0.45),
      cruelty_free: rng.chance(0.8),
    }),
    children: [
      mid("skin_care", "Skin Care", [
        leaf("moisturizers", "Moisturizers", [8, 150],
          "Daily Hydrating Moisturizer|Night Repair Cream|Oil-Free Gel Moisturizer|Rich Barrier Cream|Tinted Moisturizer SPF 30"),
        leaf("cleansers", "Cleansers", [6, 60], "Gentle Foaming Cleanser|Cream Cleanser|Micellar Water|Exfoliating Face Wash|Cleansing Balm"),
        leaf("serums", "Serums & Treatments", [10, 200],
          "Vitamin C Serum|Hyaluronic Acid Serum|Retinol Night Serum|Niacinamide Serum|Brightening Eye Cream"),
        leaf("sunscreen", "Sunscreen", [7, 60],
          "Mineral Sunscreen SPF 50|Sport Sunscreen Lotion SPF 30|Face Sunscreen SPF 40|Sunscreen Stick SPF 50"),
      ]),
      mid("hair_care", "Hair Care", [
        leaf("shampoo_conditioner", "Shampoo & Conditioner", [6, 80],
          "Moisturizing Shampoo|Clarifying Shampoo|Sulfate-Free Conditioner|Shampoo and Conditioner Set|Dry Shampoo"),
        leaf("hair_tools", "Hair Dryers & Styling Tools", [20, 550],
          "Ionic Hair Dryer|Ceramic Flat Iron|Curling Wand 1-inch|Hot Air Brush|Hair Straightening Brush", { materials: "Ceramic|Tourmaline|Titanium" }),
        leaf("hair_treatments", "Hair Treatments", [8, 70], "Argan Hair Oil|Deep Conditioning Hair Mask|Leave-In Conditioner|Scalp Serum"),
      ]),
      mid("makeup", "Makeup", [
        leaf("lip_makeup", "Lip Makeup", [5, 50], "Matte Liquid Lipstick|Tinted Lip Balm|Satin Lipstick|Lip Liner|Lip Gloss Set"),
        leaf("face_makeup", "Face Makeup", [8, 70], "Liquid Foundation|Cushion Compact|Concealer|Setting Powder|Cream Blush"),
        leaf("eye_makeup", "Eye Makeup", [6, 65], "Lengthening Mascara|Eyeshadow Palette|Waterproof Eyeliner|Brow Pencil"),
        leaf("makeup_tools", "Brushes & Tools", [8, 120],
          "Makeup Brush Set (12 Piece)|Beauty Sponge (4 Pack)|Eyelash Curler|Lighted Makeup Mirror", { materials: "Synthetic Bristles|Bamboo|Stainless Steel" }),
      ]),
      mid("fragrance", "Fragrance", [
        leaf("womens_fragrance", "Women's Fragrance", [20, 250],
          "Eau de Parfum 50ml|Eau de Parfum 100ml|Eau de Toilette Spray|Perfume Rollerball"),
        leaf("mens_fragrance", "Men's Fragrance", [20, 250], "Eau de Toilette 100ml|Cologne Spray 50ml|Eau de Parfum 100ml|Aftershave Balm"),
      ]),
      mid("shaving_grooming", "Shaving & Grooming", [
        leaf("razors", "Razors & Shaving", [6, 120], "Safety Razor|5-Blade Razor with Refills|Shaving Cream|Shaving Brush and Stand", { materials: "Stainless Steel|Chrome|Glass Bottle" }),
        leaf("electric_shavers", "Electric Shavers & Trimmers", [25, 350],
          "Electric Foil Shaver|Rotary Shaver|Beard Trimmer|Hair Clipper Set|Body Groomer", { materials: "Stainless Steel|ABS Plastic" }),
        leaf("beard_care", "Beard Care", [8, 60], "Beard Oil|Beard Balm|Beard Grooming Kit|Beard Wash"),
      ]),
    ],
  },
  {
    slug: "tools_garden",
    name: "Tools & Garden",
    color: "#4f6d7a",
    kind: "goods",
    mods: ["Pro", "Heavy-Duty", "Compact", "Industrial"],
    lines: ["Max", "XT", "Fuel", "Titan"],
    colors: ["Yellow", "Red", "Orange", "Black", "Green", "Blue", "Gray"],
    materials: ["Chrome Vanadium Steel", "Hardened Steel", "Aluminum", "Fiberglass", "Polypropylene", "Rubber", "Cedar"],
    intro: [
      "Made for serious DIYers and professionals: the {brand} {item}.",
      "Get the job done with {material} construction built to last.",
      "Reliable, comfortable and powerful enough for every garage.",
      "Up to the task, from weekend projects to everyday jobs.",
    ],
    details: [
      "An ergonomic grip reduces fatigue during long jobs.",
      "Backed by a 3-year limited warranty.",
      "Batteries and chargers are shared across the whole cordless range.",
      "Weather-resistant finish for use indoors and out.",
    ],
    attributes: (rng, { color, material }) => ({
      color,
      material,
      weight_g: grams(rng, 80, 40000),
      cordless: rng.chance(0.5),
      voltage: rng.pick([0, 12, 18, 20, 40, 120]),
    }),
    children: [
      mid("power_tools", "Power Tools", [
        leaf("drills", "Drills & Drivers", [40, 450],
          "20V Cordless Drill/Driver Kit|Brushless Hammer Drill|Impact Driver|Right-Angle Drill|Drill and Impact Driver Combo Kit",
          { weight: 2 }),
        leaf("saws", "Saws", [50, 700], "7-1/4-inch Circular Saw|Cordless Reciprocating Saw|Jigsaw|10-inch Miter Saw|Jobsite Table Saw"),
        leaf("sanders", "Sanders & Grinders", [30, 300], "Random Orbital Sander|Detail Sander|4-1/2-inch Angle Grinder|Belt Sander"),
      ], "Glass-Filled Nylon|Aluminum|Magnesium"),
      mid("hand_tools", "Hand Tools", [
        leaf("wrenches", "Wrenches & Sockets", [10, 350],
          "Combination Wrench Set|Adjustable Wrench 10-inch|Socket Set 1/2-inch Drive|Torque Wrench|Ratcheting Wrench Set"),
        leaf("screwdrivers", "Screwdrivers", [8, 90],
          "Screwdriver Set (10 Piece)|Precision Screwdriver Kit|Ratcheting Screwdriver|Insulated Screwdriver Set"),
        leaf("hammers", "Hammers & Mallets", [12, 90], "16 oz Claw Hammer|Framing Hammer|Rubber Mallet|Dead Blow Hammer"),
        leaf("tool_sets", "Tool Sets", [25, 800],
          "Mechanics Tool Set (200 Piece)|Household Tool Kit|Homeowner's Tool Set|Mechanics Tool Chest Set"),
      ], "Chrome Vanadium Steel|Hardened Steel|Fiberglass|Forged Steel"),
      mid("gardening", "Gardening & Lawn Care", [
        leaf("watering", "Hoses & Watering", [12, 150],
          "Expandable Garden Hose 50ft|Rubber Garden Hose 100ft|Hose Reel Cart|Oscillating Sprinkler|Watering Can 2-Gallon", { materials: "Rubber|Polyurethane|Brass|Polypropylene" }),
        leaf("pruning_tools", "Pruning Tools", [10, 120], "Bypass Pruning Shears|Loppers|Hedge Shears|Pruning Saw|Garden Tool Set", { materials: "Hardened Steel|Carbon Steel|Aluminum" }),
        leaf("planters", "Planters & Raised Beds", [8, 200], "Ceramic Planter|Raised Garden Bed|Self-Watering Planter|Hanging Planter (2 Pack)", { materials: "Cedar|Ceramic|Galvanized Steel|Resin" }),
      ]),
      mid("outdoor_power", "Outdoor Power Equipment", [
        leaf("lawn_mowers", "Lawn Mowers", [150, 4000],
          "Cordless Lawn Mower 21-inch|Self-Propelled Gas Mower|Robotic Lawn Mower|Reel Mower|Riding Lawn Mower"),
        leaf("leaf_blowers", "Leaf Blowers & Trimmers", [50, 400], "Cordless Leaf Blower|String Trimmer|Backpack Leaf Blower|Hedge Trimmer"),
        leaf("pressure_washers", "Pressure Washers", [90, 700],
          "Electric Pressure Washer 2000 PSI|Gas Pressure Washer 3100 PSI|Cordless Power Cleaner"),
      ], "Steel|Polypropylene|Aluminum"),
      mid("tool_storage", "Tool Storage & Workbenches", [
        leaf("tool_boxes", "Tool Boxes", [15, 600], "Rolling Tool Box|Tool Bag 16-inch|Modular Storage System|Steel Tool Chest"),
        leaf("workbenches", "Workbenches & Shelving", [60, 800], "Adjustable Workbench|Garage Shelving Unit|Folding Sawhorse (2 Pack)|Pegboard Kit"),
      ], "Steel|Polypropylene|Hardwood"),
    ],
  },
];

/** Brands: name and the top-level categories they sell in. Slugs are derived from names. */
export const BRANDS: Array<{ name: string; tops: string[] }> = [
  ...["Aurora Sound", "Voltix", "Nimbus Labs", "Pixelcraft", "Quantum Edge", "Lumina Tech", "Halcyon Audio"].map((name) => ({ name, tops: ["electronics"] })),
  ...["Copperleaf", "Hearth & Oak", "Kitchenary", "Brightnest", "Ember Forge", "Salt & Sage", "Linenfold"].map((name) => ({ name, tops: ["home_kitchen"] })),
  ...["Trailpeak", "Stridewell", "Summit Ridge", "Northbound Gear", "Velocity Athletics", "Tidewater Outdoors", "Ironclad Fitness"].map((name) => ({ name, tops: ["sports_outdoors"] })),
  ...["Larkspur Press", "Quillstone Books", "Harbor Lane Publishing", "Old Mill Press", "Bluebird & Co.", "Meridian House", "Inkwell Editions"].map((name) => ({ name, tops: ["books"] })),
  ...["Brickwise", "Tumbletot", "Wonderbox", "Puzzleworks", "Little Comet", "Rocket Otter", "Gamesmith"].map((name) => ({ name, tops: ["toys_games"] })),
  ...["Wren & Thread", "Northloom", "Cobalt Denim", "Marlow & Finch", "Urban Kite", "Stitchline", "Velvet Pine"].map((name) => ({ name, tops: ["fashion"] })),
  ...["Luma Botanics", "Petal & Pore", "Glowhaus", "Dewdrop Naturals", "Amber Rose Apothecary", "Silkbloom", "Pure Tonic"].map((name) => ({ name, tops: ["beauty"] })),
  ...["Gritworks", "Greenthumb Co.", "Torqline", "Rootstock Garden", "Forgemaster", "Bramble & Spade", "Steelhand"].map((name) => ({ name, tops: ["tools_garden"] })),
  { name: "Everyday Basics", tops: ["electronics", "home_kitchen", "beauty", "toys_games"] },
  { name: "Northwind Goods", tops: ["home_kitchen", "sports_outdoors", "tools_garden"] },
  { name: "Simply Made", tops: ["home_kitchen", "fashion", "beauty"] },
  { name: "Atlas Outdoor Co.", tops: ["sports_outdoors", "fashion", "tools_garden"] },
];

export const FIRST_NAMES = [
  "Amelia", "Jonah", "Priya", "Mateo", "Hannah", "Kenji", "Olivia", "Samuel", "Leila", "Marcus",
  "Ingrid", "Tomas", "Naomi", "Elias", "Ruth", "Diego", "Clara", "Wei", "Fatima", "Owen",
  "Beatrix", "Arjun", "Sofia", "Theo", "Imogen", "Kwame", "Margot", "Rafael", "Yuki", "Eleanor",
];

export const LAST_NAMES = [
  "Hale", "Okafor", "Lindqvist", "Moreau", "Castillo", "Whitaker", "Nakamura", "Brennan", "Adeyemi", "Sorensen",
  "Quinn", "Vasquez", "Achebe", "Holloway", "Patel", "Kowalski", "Fairbanks", "Ibarra", "Thorne", "Mbeki",
  "Ashford", "Delgado", "Ellery", "Fontaine", "Grant", "Huang", "Iverson", "Jovanovic", "Keane", "Laurent",
];

const BOOK_ADJECTIVES = [
  "Silent", "Hidden", "Last", "Winter", "Golden", "Broken", "Distant", "Crimson", "Quiet", "Lost",
  "Burning", "Glass", "Midnight", "Northern", "Salt", "Paper", "Hollow", "Wild", "Iron", "Secret",
];
const BOOK_NOUNS = [
  "Harbor", "Garden", "River", "Lighthouse", "Orchard", "Kingdom", "Mirror", "Archive", "Compass", "Lantern",
  "Tide", "Forest", "Station", "Letter", "Summer", "Crown", "Bridge", "Storm", "Map", "Island",
  "Clockmaker", "Cartographer", "Beekeeper", "Daughter", "Stranger", "Orchestra", "Observatory", "Ferryman",
];
export const PLACES = [
  "Lisbon", "the Andes", "Kyoto", "the Nile", "Venice", "Patagonia", "Istanbul", "Mexico City", "the Baltic",
  "Marrakesh", "Oaxaca", "Sicily", "Seoul", "Provence", "the Silk Road", "Lagos", "Havana", "the Hebrides",
];
const PERSONS = [
  "a Lighthouse Keeper", "an Unlikely Inventor", "a Radio Pioneer", "a Forgotten Painter", "a Mountain Guide",
  "a Jazz Legend", "a Codebreaker", "a Marine Biologist",
];

function plural(noun: string): string {
  if (noun.endsWith("man")) return `${noun.slice(0, -3)}men`;
  if (/[^aeiou]y$/.test(noun)) return `${noun.slice(0, -1)}ies`;
  if (/(s|x|ch|sh)$/.test(noun)) return `${noun}es`;
  return `${noun}s`;
}

/** "a" or "an" before a word (by its first letter; good enough for this vocabulary). */
export function article(word: string): string {
  return /^[aeiou]/i.test(word) ? "an" : "a";
}

/** A made-up book title such as "The Silent Harbor" or "Lanterns of the Hidden Sea". */
export function bookName(rng: Rng): string {
  const adj = rng.pick(BOOK_ADJECTIVES);
  const noun = rng.pick(BOOK_NOUNS);
  switch (rng.int(0, 5)) {
    case 0:
      return `The ${adj} ${noun}`;
    case 1:
      return `The ${noun} of ${rng.pick(PLACES).replace(/^the /, "")}`;
    case 2:
      return `${adj} ${noun}`;
    case 3:
      return `The ${noun}'s ${rng.pick(BOOK_NOUNS)}`;
    case 4:
      return `${article(noun) === "an" ? "An" : "A"} ${noun} in ${rng.pick(PLACES)}`;
    default:
      return `${plural(noun)} of the ${adj} Sea`;
  }
}

/** Fills {place}, {n}, {person}, {series} in a book subtitle. */
export function fillBookItem(rng: Rng, item: string): string {
  return item
    .replace("{place}", () => rng.pick(PLACES))
    .replace("{n}", () => String(rng.int(1, 24)))
    .replace("{person}", () => rng.pick(PERSONS))
    .replace("{series}", () => rng.pick(BOOK_NOUNS));
}

/** Fills {placeholders} in a description sentence, then tidies spaces, articles and the capital. */
export function fill(template: string, values: Record<string, string>): string {
  const text = template
    .replace(/\{(\w+)\}/g, (_, key: string) => values[key] ?? "")
    .replace(/\s{2,}/g, " ")
    .replace(/\b([Aa]) ([aeiou])/g, (_, a: string, next: string) => `${a}n ${next}`)
    .trim();
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "Cast Iron" -> "cast iron", keeping acronyms ("ABS Plastic" -> "ABS plastic"). */
export function lowerWords(text: string): string {
  return text
    .split(" ")
    .map((w) => (w.length > 1 && w === w.toUpperCase() && /[A-Z]/.test(w) ? w : w.toLowerCase()))
    .join(" ");
}
