"""Drawing vocabulary in Swedish, German and Chinese with its English sense.

Longer than the house's ~600 lines because most of it is the glossary itself (about 700 lines of
terms, one a line); the code that reads it is about 330 lines.

A glossary of the words engineering drawings are written in, not of particular drawings: the labels of
title-block fields ("Benämning", "Werkstoff", "图号"), common values ("Anodiserad", "verzinkt"), and
the nouns parts are named with ("Platte", "Hållare", "Welle"). German and Swedish join nouns into
compounds ("Adapterplatte", "Ljushållare"); :func:`split_compound` takes them apart so that each part
gets its sense. Chinese has no spaces; known terms are found in it by longest match.

The API:

- :func:`english` — the English sense of a term or phrase ("Ljushållare" -> "candle holder").
- :func:`senses` — the English words for the foreign terms found in a text.
- :func:`label_field` / :func:`split_label` — which title-block field a label names, in any language,
  and the value written after it.
- :func:`synonyms` — other English words for an English sense ("anodised" -> "anodized").
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import NamedTuple

from appliance.spelling import edit_distance

#: Title-block field -> its English name (how an answer or a question speaks of it).
FIELD_NAMES: dict[str, str] = {
    "title": "title",
    "drawing_number": "drawing number",
    "material": "material",
    "scale": "scale",
    "weight": "weight",
    "surface_treatment": "surface treatment",
    "heat_treatment": "heat treatment",
    "roughness": "roughness",
    "general_tolerance": "general tolerance",
    "sheet": "sheet",
    "size": "sheet size",
    "date": "date",
    "drawn_by": "drawn by",
    "checked_by": "checked by",
    "approved_by": "approved by",
    "project": "project",
    "revision": "revision",
    "quantity": "quantity",
    "department": "responsible department",
    "technical_reference": "technical reference",
    "document_type": "document type",
    "document_status": "document status",
    "owner": "legal owner",
    # The further fields of GB/T 10609.1 blocks.
    "stage": "stage mark",
    "company": "company",
    "standardised_by": "standardised by",
    "process_by": "process engineer",
    "approved_date": "approval date",
}

#: Title-block field -> the labels that introduce it (lower case; English, Swedish, German, Chinese).
LABELS: dict[str, tuple[str, ...]] = {
    "title": (
        "title, supplementary title",
        "supplementary title",
        "title",
        "part name",
        "description",
        "designation",
        "benämning",
        "benamning",
        "titel",
        "benennung",
        "bezeichnung",
        "名称",
        "零件名称",
        "图样名称",
        "图名",
    ),
    "drawing_number": (
        "drawing number",
        "identification number",
        "ident. no",
        "identifikationsnummer",
        "sachnummer",
        "drawing no",
        "dwg no",
        "dwg. no",
        "drg no",
        "drg. no",
        "part number",
        "part no",
        "document number",
        "doc no",
        "ritningsnummer",
        "ritningsnr",
        "ritn nr",
        "ritn.nr",
        "ritn. nr",
        "zeichnungsnummer",
        "zeichnungsnr",
        "zeichnungs-nr",
        "zeichn.-nr",
        "zeichn. nr",
        "art.nr",
        "art. nr",
        "art nr",
        "teil-nr",
        "teilenummer",
        "artikelnummer",
        "图号",
        "图样代号",
        "代号",
        "零件号",
    ),
    "material": (
        "material specification",
        "material spec",
        "material",
        "matl",
        "werkstoff",
        "materialbezeichnung",
        "材料",
        "材质",
    ),
    "heat_treatment": (
        "heat treatment",
        "heat treat",
        "wärmebehandlung",
        "waermebehandlung",
        "värmebehandling",
        "varmebehandling",
        "热处理",
    ),
    "scale": ("drawing scale", "scale", "skala", "maßstab", "massstab", "比例"),
    "weight": ("weight", "wt", "mass", "vikt", "massa", "gewicht", "gew", "masse", "重量", "质量"),
    "surface_treatment": (
        "surface treatment",
        "surface protection",
        "coating",
        "finish",
        "ytbehandling",
        "ytskydd",
        "oberflächenbehandlung",
        "oberflaechenbehandlung",
        "oberflächenschutz",
        "oberfläche",
        "oberflaeche",
        "beschichtung",
        "表面处理",
    ),
    "roughness": (
        "general surface finish",
        "surface roughness",
        "surface finish",
        "surface quality",
        "generell ytstruktur",
        "ytstruktur",
        "oberflächengüte",
        "oberflaechenguete",
        "roughness",
        "ytjämnhet",
        "ytjamnhet",
        "ytfinhet",
        "oberflächenrauheit",
        "rauheit",
        "rauhigkeit",
        "表面粗糙度",
        "粗糙度",
    ),
    "general_tolerance": (
        "general tolerances",
        "general tolerance",
        "tolerances unless otherwise stated",
        "tolerance class",
        "toleranzklasse",
        "toleransklass",
        "tolerance, if not indicated",
        "tolerance if not indicated",
        "untoleranced dimensions",
        "allmän tolerans",
        "allmänna toleranser",
        "allman tolerans",
        "toleranser",
        "allgemeintoleranzen",
        "allgemeintoleranz",
        "freimaßtoleranz",
        "freimasstoleranz",
        "toleranzen",
        "toleranz",
        "tolerances",
        "tolerance",
        "tolerans",
        "未注公差",
        "一般公差",
    ),
    "sheet": ("sheet no", "sheet", "blad", "blatt", "sida", "张次", "张数", "页码"),
    "size": (
        "sheet size",
        "paper size",
        "size",
        "format",
        "blattgröße",
        "blattgroesse",
        "blattformat",
        "图幅",
        "幅面",
    ),
    "date": (
        "date of issue",
        "issue date",
        "date",
        "utfärdandedatum",
        "ausgabedatum",
        "datum",
        "日期",
    ),
    "drawn_by": (
        "drawn by",
        "drawn",
        "created by",
        "creator",
        "upprättad av",
        "erstellt durch",
        "designed by",
        "designer",
        "author",
        "dwn",
        "drn",
        "ritad av",
        "ritad",
        "konstruerad av",
        "konstruktör",
        "konstruerad",
        "konstr",
        "gezeichnet",
        "gez",
        "bearbeitet",
        "bearb",
        "erstellt",
        "制图",
        "绘图",
        "设计",
    ),
    "checked_by": (
        "checked by",
        "checked",
        "reviewed by",
        "reviewer",
        "rev. by",
        "gransk. av",
        "gransk av",
        "chk'd",
        "chkd",
        "chk",
        "ckd",
        "kontr",
        "kontrollerad av",
        "granskad av",
        "granskad",
        "kontrollerad",
        "geprüft",
        "geprueft",
        "gepr",
        "审核",
        "校对",
    ),
    "approved_by": (
        "approved by",
        "approved",
        "approval person",
        "genehmigt von",
        "genehmigt",
        "appr. by",
        "appr by",
        "appv'd",
        "app'd",
        "appd",
        "apvd",
        "appr",
        "gen",
        "godk",
        "godkänd av",
        "审定",
        "godk. av",
        "godk av",
        "godkänd",
        "freigegeben",
        "freigabe",
        "freig",
        "批准",
    ),
    "project": (
        "project number",
        "project no",
        "project",
        "course code",
        "course",
        "projekt",
        "projektnummer",
        "projekt nr",
        "projekt-nr",
        "job number",
        "job no",
        "kurskod",
        "kurs",
        "auftragsnummer",
        "auftrag",
        "项目",
        "课程",
    ),
    "revision": (
        "revision",
        "rev",
        "revidering",
        "ändring",
        "änderung",
        "aenderung",
        "änderungsindex",
        "index",
        "zustand",
        "zust",
        "ausgabe",
        "issue",
        "utgåva",
        "utgava",
        "版本",
        "版次",
    ),
    "quantity": (
        "quantity required",
        "qty reqd",
        "qty req'd",
        "quantity",
        "qty",
        "antal",
        "anzahl",
        "menge",
        "stückzahl",
        "数量",
        "件数",
    ),
    # The further fields of ISO 7200 title blocks.
    "department": (
        "responsible department",
        "resp. department",
        "resp. dept",
        "responsible dept",
        "department",
        "ansvarig avdelning",
        "avdelning",
        "verantwortliche abteilung",
        "verantw. abteilung",
        "abteilung",
        "部门",
    ),
    "technical_reference": (
        "technical reference",
        "techn. reference",
        "teknisk referens",
        "technische referenz",
        "techn. referenz",
    ),
    "document_type": (
        "document type",
        "type of document",
        "dokumenttyp",
        "dokumentart",
        "dokumentenart",
        "文件类型",
    ),
    "document_status": (
        "document status",
        "dokumentstatus",
        "dokumentenstatus",
        "文件状态",
    ),
    "owner": ("legal owner", "owner", "ägare", "eigentümer", "rechtlicher eigentümer"),
    # GB/T 10609.1 blocks: the stage mark (S, A, B), the company's cell (单位名称; a bare 单位 is
    # also the unit of a quantity, "单位 件"), and two sign-offs of the grid besides 设计, 审核 and
    # 批准: standardisation (标准化) and the process engineer (工艺).
    "stage": ("stage mark", "阶段标记"),
    "company": ("company name", "单位名称"),
    "standardised_by": ("standardised by", "standardized by", "标准化"),
    "process_by": ("process engineer", "工艺"),
    # The approval's own date, in the cell beside the approver's name (read by the grid, no label).
    "approved_date": (),
}

#: Foreign word (lower case, Swedish or German) -> its English sense.
WORDS: dict[str, str] = {
    # Title-block labels.
    "benämning": "title",
    "benamning": "title",
    "benennung": "title",
    "bezeichnung": "title",
    "titel": "title",
    "ritning": "drawing",
    "ritningsnummer": "drawing number",
    "zeichnung": "drawing",
    "zeichnungsnummer": "drawing number",
    "nummer": "number",
    "werkstoff": "material",
    "skala": "scale",
    "maßstab": "scale",
    "massstab": "scale",
    "vikt": "weight",
    "massa": "mass",
    "gewicht": "weight",
    "masse": "mass",
    "ytbehandling": "surface treatment",
    "oberfläche": "surface",
    "oberflächenbehandlung": "surface treatment",
    "behandlung": "treatment",
    "ytjämnhet": "roughness",
    "rauheit": "roughness",
    "rauhigkeit": "roughness",
    "tolerans": "tolerance",
    "toleranz": "tolerance",
    "allmän": "general",
    "allgemein": "general",
    "allgemeintoleranz": "general tolerance",
    "blad": "sheet",
    "blatt": "sheet",
    "datum": "date",
    "ritad": "drawn",
    "gezeichnet": "drawn",
    "granskad": "checked",
    "geprüft": "checked",
    "godkänd": "approved",
    "freigegeben": "approved",
    "kurs": "course",
    "projekt": "project",
    "ändring": "revision",
    "änderung": "revision",
    "antal": "quantity",
    "anzahl": "quantity",
    "menge": "quantity",
    # The parts of the sheet: taken apart, "Stück-liste" would read "piece strip".
    "stückliste": "parts list",
    "stueckliste": "parts list",
    "teileliste": "parts list",
    "stycklista": "parts list",
    "schriftfeld": "title block",
    "stück": "piece",
    # Materials and treatments.
    "stål": "steel",
    "stahl": "steel",
    "rostfritt": "stainless",
    "rostfri": "stainless",
    "rostfrei": "stainless",
    "edelstahl": "stainless steel",
    "aluminium": "aluminium",
    "mässing": "brass",
    "messing": "brass",
    "koppar": "copper",
    "kupfer": "copper",
    "plast": "plastic",
    "kunststoff": "plastic",
    "gjutjärn": "cast iron",
    "grauguss": "cast iron",
    "guss": "casting",
    "gummi": "rubber",
    "kulör": "colour",
    "färg": "colour",
    "farbe": "colour",
    "natur": "natural",
    "svart": "black",
    "schwarz": "black",
    "trä": "wood",
    "holz": "wood",
    "anodiserad": "anodised",
    "anodiserat": "anodised",
    "eloxerad": "anodised",
    "eloxiert": "anodised",
    "förzinkad": "galvanised",
    "galvaniserad": "galvanised",
    "verzinkt": "galvanised",
    "härdad": "hardened",
    "härdas": "hardened",
    "härdade": "hardened",
    "gehärtet": "hardened",
    "lackerad": "painted",
    "målad": "painted",
    "lackiert": "painted",
    "pulverlackerad": "powder coated",
    "pulverbeschichtet": "powder coated",
    "svartoxiderad": "black oxide",
    "brüniert": "black oxide",
    "förnicklad": "nickel plated",
    "vernickelt": "nickel plated",
    "förkromad": "chrome plated",
    "verchromt": "chrome plated",
    "polerad": "polished",
    "poliert": "polished",
    "slipad": "ground",
    "slipas": "ground",
    "rullas": "rolled",
    "rullad": "rolled",
    "styrdiameter": "guide diameter",
    "rostskyddsolja": "anti-rust oil",
    "rostskydd": "rust protection",
    "oljas": "oiled",
    "geölt": "oiled",
    "eingeölt": "oiled",
    "målas": "painted",
    "lackeras": "painted",
    "blästras": "blasted",
    "betas": "pickled",
    "gebeizt": "pickled",
    "avfettas": "degreased",
    "entfettet": "degreased",
    # When a step comes in a note: "Rostskyddsolja efter kontroll" (anti-rust oil after inspection).
    "vor": "before",
    "einsatzhärten": "case hardening",
    "härten": "hardening",
    "abdecken": "mask",
    "abgedeckt": "masked",
    "maskeras": "masked",
    "kontroll": "inspection",
    "prüfung": "inspection",
    "efter": "after",
    "före": "before",
    "gewindefreistich": "thread undercut",
    "freistich": "undercut",
    "geschliffen": "ground",
    "blästrad": "blasted",
    "gestrahlt": "blasted",
    "obehandlad": "untreated",
    "unbehandelt": "untreated",
    # Features.
    "gänga": "thread",
    "gewinde": "thread",
    "genomgående": "through",
    "durchgehend": "through",
    "hål": "hole",
    "bohrung": "hole",
    "loch": "hole",
    "fas": "chamfer",
    "fase": "chamfer",
    "senkung": "countersink",
    "radie": "radius",
    "djup": "depth",
    "tiefe": "depth",
    "tief": "deep",
    "längd": "length",
    "länge": "length",
    "bredd": "width",
    "breite": "width",
    "höjd": "height",
    "höhe": "height",
    "durchmesser": "diameter",
    "vinkel": "angle",
    "winkel": "angle",
    "spår": "groove",
    "lauffläche": "running face",
    "fläche": "face",
    "dicht": "sealing",
    "dichtfläche": "sealing face",
    "druckfläche": "pressure face",
    "anlagefläche": "contact face",
    "passfläche": "fitting face",
    "yta": "surface",
    "tätningsyta": "sealing face",
    "anliggningsyta": "contact face",
    "kante": "edge",
    "kant": "edge",
    "gebrochen": "broken",
    "bruten": "broken",
    "geradheit": "straightness",
    "ebenheit": "flatness",
    "rundheit": "roundness",
    "härte": "hardness",
    "hårdhet": "hardness",
    "induktiv": "induction",
    "eht": "case hardening depth",
    "anzugsmoment": "tightening torque",
    "moment": "torque",
    "åtdragningsmoment": "tightening torque",
    "anmerkung": "note",
    "anmärkning": "note",
    "hinweis": "note",
    # Parts.
    "platta": "plate",
    "bottenplatta": "base plate",
    "platte": "plate",
    "plåt": "sheet metal",
    "blech": "sheet metal",
    "hållare": "holder",
    "halter": "holder",
    "halterung": "mount",
    "fäste": "bracket",
    "axel": "shaft",
    "welle": "shaft",
    # Common words of part names (a drive shaft, a worm wheel, a lid).
    "antrieb": "drive",
    "abtrieb": "output",
    "zwischen": "intermediate",
    "vorgelege": "counter",  # Vorgelegewelle: countershaft
    "kurven": "cam",  # Kurvenscheibe: cam disc
    "schnecke": "worm",
    "schneckenrad": "worm wheel",
    "schalt": "shift",
    "befestigung": "fastening",
    "zapfen": "journal",
    "walze": "roller",
    "block": "block",
    "driv": "drive",
    "mellan": "intermediate",
    "drev": "pinion",
    "cylinder": "cylinder",
    "kugg": "gear",
    "achse": "axle",
    "kolv": "piston",
    "nav": "hub",
    "nabe": "hub",
    "kolben": "piston",
    "ljus": "candle",
    "kerze": "candle",
    "lock": "lid",
    "deckel": "cover",
    "kapsel": "cap",
    "kappe": "cap",
    "bock": "block",
    "kåpa": "cover",
    "botten": "bottom",
    "boden": "bottom",
    "hus": "housing",
    "gehäuse": "housing",
    "skruv": "screw",
    "schraube": "screw",
    "mutter": "nut",
    "bricka": "washer",
    "scheibe": "washer",
    "bult": "bolt",
    "bolzen": "bolt",
    "stift": "pin",
    "fjäder": "spring",
    "feder": "spring",
    "lager": "bearing",
    "hjul": "wheel",
    "rad": "wheel",
    "kugghjul": "gear",
    "zahnrad": "gear",
    "stirnrad": "spur gear",
    "rör": "tube",
    "rohr": "tube",
    "flansch": "flange",
    "fläns": "flange",
    "stång": "rod",
    "stange": "rod",
    "distans": "spacer",
    "ram": "frame",
    "rahmen": "frame",
    "balk": "beam",
    "träger": "beam",
    "fot": "foot",
    "fuß": "foot",
    "skiva": "disc",
    "klämma": "clamp",
    "klemme": "clamp",
    "spannvorrichtung": "clamping fixture",
    "aufspannung": "clamping fixture",
    "vorrichtung": "fixture",
    "fixtur": "fixture",
    "aufnahme": "mount",
    "ecke": "corner",
    "hörn": "corner",
    "führung": "guide",
    "schiene": "rail",
    "grund": "base",
    "bas": "base",
    "unterteil": "lower part",
    "oberteil": "upper part",
    "teil": "part",
    "detalj": "part",
    "baugruppe": "assembly",
    "zusammenbau": "assembly",
    "montering": "assembly",
    "sammanställning": "assembly",
    "greifer": "gripper",
    "gripdon": "gripper",
    "griff": "handle",
    "handtag": "handle",
    "pump": "pump",
    "pumpe": "pump",
    "cykel": "bicycle",
    "fahrrad": "bicycle",
    "torn": "tower",
    "turm": "tower",
    "hiss": "elevator",
    "aufzug": "elevator",
    "adapter": "adapter",
    "zylinder": "cylinder",
    "hylsa": "sleeve",
    "hülse": "sleeve",
    "buchse": "bushing",
    "bussning": "bushing",
    "tätning": "seal",
    "dichtung": "seal",
    "stativ": "stand",
    "ständer": "stand",
    "konsol": "bracket",
    "profil": "profile",
    "ring": "ring",
    "arm": "arm",
    "knopp": "knob",
    "knopf": "knob",
    "mittel": "middle",
    "mitte": "middle",
    "övre": "upper",
    "nedre": "lower",
    "oben": "top",
    "unten": "bottom",
    "vänster": "left",
    "höger": "right",
    "links": "left",
    "rechts": "right",
    # Machine elements: the nouns of a machine-design textbook's contents, so that a title made of
    # them ("Kettenspanner", "Kedjespännare") has an English sense however it is compounded.
    "ritzel": "pinion",
    "riemenscheibe": "pulley",
    "remskiva": "pulley",
    "kupplung": "coupling",
    "koppling": "coupling",
    "hebel": "lever",
    "spak": "lever",
    "kurbel": "crank",
    "vev": "crank",
    "nocken": "cam",
    "kam": "cam",
    "schlitten": "slide",
    "släde": "slide",
    "spindel": "spindle",
    "distanz": "spacer",
    "spann": "clamping",
    "pratze": "claw",
    "spanner": "tensioner",
    "spännare": "tensioner",
    "rolle": "roller",
    "rulle": "roller",
    "stütze": "support",
    "stöd": "support",
    "sockel": "base",
    "abdeckung": "cover",
    "leiste": "strip",
    "list": "strip",
    "ventil": "valve",
    "düse": "nozzle",
    "munstycke": "nozzle",
    "getriebe": "gearbox",
    "växellåda": "gearbox",
    "anschlag": "stop",
    "stopp": "stop",
    "kette": "chain",
    "kedja": "chain",
    "kedje": "chain",
    "zahnriemen": "timing belt",
    "kuggrem": "timing belt",
    "riemen": "belt",
    "rem": "belt",
    "keil": "key",
    "kil": "key",
    "passfeder": "key",
    "stopfen": "plug",
    "propp": "plug",
    "lasche": "strap",
    "gabel": "fork",
    # Part names whose English is an idiom, not the sense of their pieces.
    "gabelkopf": "clevis",
    "druckstück": "thrust pad",
    "druckstueck": "thrust pad",
    "druckscheibe": "thrust washer",
    "passscheibe": "shim",
    "gewindestift": "set screw",
    "zylinderstift": "dowel pin",
    "senkschraube": "countersunk screw",
    "gaffel": "fork",
    "öse": "eye",
    "haken": "hook",
    "krok": "hook",
    "zwischenstück": "spacer",
    "verbinder": "connector",
    "gelenk": "joint",
    "led": "joint",
    "umlenk": "deflection",
    "klemm": "clamping",
    "hand": "hand",
    "schale": "shell",
    "gleit": "sliding",
    "glid": "sliding",
    "sicherungsring": "retaining ring",
    "låsring": "retaining ring",
    "zentrier": "centring",
    "pass": "fitted",
    "druck": "compression",
    "zug": "tension",
    "teller": "disc",
    "sensor": "sensor",
    "kabel": "cable",
    "deck": "cover",
    "täck": "cover",
    "wand": "wall",
    "vägg": "wall",
    "seite": "side",
    "sido": "side",
    "rück": "back",
    "front": "front",
    "montage": "mounting",
    "motor": "motor",
    "tapp": "pin",
    "sprint": "pin",
    "pinne": "pin",
    "styr": "guide",
    "styrpinne": "guide pin",
    "styrpinnar": "guide pins",
    "styrning": "guide",
    "skena": "rail",
    "klammer": "clamp",
    "ratt": "handwheel",
    "handrad": "handwheel",
    "bryt": "break",
    "länk": "link",
    "spänn": "tension",
    # Notes' process and inspection words (German, Swedish).
    "entgraten": "deburr",
    "entgratet": "deburred",
    "gratfrei": "burr-free",
    "scharfe": "sharp",
    "brechen": "break",
    "einsatzgehärtet": "case hardened",
    "einsatzgehaertet": "case hardened",
    "vergütet": "quenched and tempered",
    "verguetet": "quenched and tempered",
    "nitriert": "nitrided",
    "angelassen": "tempered",
    "geglüht": "annealed",
    "spannungsarm": "stress relieved",
    "einsatzhärtungstiefe": "case depth",
    "einsatzhärtetiefe": "case depth",
    "anziehdrehmoment": "tightening torque",
    "drehmoment": "torque",
    "rautiefe": "roughness",
    "passung": "fit",
    "prüfdruck": "test pressure",
    "dichtheitsprüfung": "leak test",
    "schweißnaht": "weld",
    "schweissnaht": "weld",
    "geschweißt": "welded",
    "bemaßte": "dimensioned",
    "radien": "radius",
    "gradas": "deburred",
    "gradade": "deburred",
    "skarpa": "sharp",
    "kanter": "edge",
    "sätthärdad": "case hardened",
    "satthardad": "case hardened",
    "seghärdad": "quenched and tempered",
    "seghardad": "quenched and tempered",
    "induktionshärdad": "induction hardened",
    "nitrerad": "nitrided",
    "härddjup": "case depth",
    "glödgad": "annealed",
    "avspänningsglödgad": "stress relieved",
    "svets": "weld",
    "svetsad": "welded",
    "provtryck": "test pressure",
    "täthetsprovning": "leak test",
    "måttsatta": "dimensioned",
    "radier": "radius",
    "gängor": "thread",
}

#: Chinese term -> its English sense (found in text by longest match).
CHINESE: dict[str, str] = {
    # The parts of the sheet.
    "明细栏": "parts list",
    "明细表": "parts list",
    "标题栏": "title block",
    # Notes: processes, treatments and checks.
    "去毛刺": "deburr",
    "锐边倒钝": "break sharp edges",
    "锐边": "sharp edge",
    "倒钝": "blunted",
    "未注": "unspecified",
    "渗碳": "carburised",
    "高频淬火": "induction hardened",
    "氮化": "nitrided",
    "去应力退火": "stress relief annealing",
    "退火": "annealed",
    "回火": "tempered",
    "硬度": "hardness",
    "拧紧力矩": "tightening torque",
    "力矩": "torque",
    "喷塑": "powder coated",
    "热处理": "heat treatment",
    "焊接": "weld",
    "试验压力": "test pressure",
    "裂纹": "cracks",
    "清洗": "cleaned",
    "涂油": "oiled",
    "名称": "title",
    "零件名称": "part name",
    "图号": "drawing number",
    "材料": "material",
    "材质": "material",
    "比例": "scale",
    "重量": "weight",
    "质量": "mass",
    "表面处理": "surface treatment",
    "表面粗糙度": "surface roughness",
    "粗糙度": "roughness",
    "未注公差": "general tolerance",
    "一般公差": "general tolerance",
    "公差": "tolerance",
    "图幅": "sheet size",
    "幅面": "sheet size",
    "日期": "date",
    "制图": "drawn by",
    "绘图": "drawn by",
    "设计": "designed by",
    "审核": "checked by",
    "校对": "checked by",
    "批准": "approved by",
    # GB/T 10609.1 block labels and its change rows' headers.
    "图样名称": "title",
    "图样代号": "drawing number",
    "单位名称": "company",
    "标准化": "standardised by",
    "工艺": "process engineer",
    "阶段标记": "stage mark",
    "更改文件号": "change document number",
    "分区": "zone",
    "签名": "signed by",
    "年月日": "date",
    "项目": "project",
    "课程": "course",
    "版本": "revision",
    "垫片": "washer",
    "滑块": "slider",
    "导轨": "guide rail",
    "皮带轮": "belt pulley",
    "链轮": "sprocket",
    "张紧轮": "tensioner pulley",
    "箱体": "housing",
    "挡圈": "retaining ring",
    "凸轮": "cam",
    "摇臂": "rocker arm",
    "杠杆": "lever",
    "版次": "revision",
    "数量": "quantity",
    "技术要求": "technical requirements",
    "螺纹": "thread",
    "孔": "hole",
    "通孔": "through hole",
    "板": "plate",
    "钢": "steel",
    "不锈钢": "stainless steel",
    "铝": "aluminium",
    "铝合金": "aluminium alloy",
    "铜": "copper",
    "黄铜": "brass",
    "塑料": "plastic",
    "铸铁": "cast iron",
    "阳极氧化": "anodised",
    "镀锌": "galvanised",
    "镀层": "plating",
    "激光": "laser",
    "字高": "character height",
    "轮槽": "belt groove",
    "面漆": "topcoat",
    "底漆": "primer",
    "喷涂": "sprayed",
    "外露": "exposed",
    "灰色": "grey",
    "黑色": "black",
    "镀铬": "chrome plated",
    "镀镍": "nickel plated",
    "钝化": "passivated",
    "喷砂": "sand blasted",
    "去应力": "stress relief",
    "防锈油": "anti-rust oil",
    "正火": "normalised",
    "毛刺": "burrs",
    "淬火": "hardened",
    "密封面": "sealing face",
    "工作面": "working face",
    "端面": "end face",
    "夹紧面": "clamping face",
    "试验": "test",
    "平衡": "balance",
    "静平衡": "static balancing",
    "动平衡": "dynamic balancing",
    "时效处理": "ageing treatment",
    "调质": "quenched and tempered",
    "处理": "treatment",
    "发黑": "black oxide",
    "喷漆": "painted",
    "轴": "shaft",
    "活塞": "piston",
    "支架": "bracket",
    "底座": "base",
    "盖": "cover",
    "端盖": "end cover",
    "轴承座": "bearing housing",
    "座": "seat",
    "法兰盘": "flange",
    "法兰": "flange",
    "齿轮": "gear",
    "弹簧": "spring",
    "轴承": "bearing",
    "螺栓": "bolt",
    "螺钉": "screw",
    "支承钉": "support pin",
    "圆柱销": "dowel pin",
    "内六角圆柱头螺钉": "socket head cap screw",
    "螺母": "nut",
    "垫圈": "washer",
    "销": "pin",
    # Common words of part names (drive, worm, lead screw, spline, coupling).
    "传动": "drive",
    "压": "pressure",
    "筒": "tube",
    "联轴器": "coupling",
    "定位": "locating",
    "衬": "lining",
    "衬套": "bushing",
    "固定": "fixed",
    "花键": "spline",
    "中间": "intermediate",
    "输出": "output",
    "输入": "input",
    "蜗杆": "worm",
    "蜗轮": "worm wheel",
    "丝杠": "lead screw",
    "螺杆": "screw",
    "拨叉": "shift fork",
    "托架": "bracket",
    "主轴": "spindle",
    "曲轴": "crankshaft",
    "连杆": "connecting rod",
    "带轮": "belt pulley",
    "压板": "clamp plate",
    "压块": "clamp block",
    "垫板": "backing plate",
    "夹": "clamp",
    "垫块": "spacer block",
    "导向": "guide",
    "导向面": "guide face",
    "螺孔": "threaded hole",
    "孔口": "hole mouth",
    "精度": "accuracy",
    "消除": "relieve",
    "内应力": "internal stress",
    "应力": "stress",
    "导柱": "guide pillar",
    "齿条": "rack",
    "键": "key",
    "挡": "stop",
    "隔": "spacer",
    "调整": "adjusting",
    "支撑": "support",
    "支": "support",
    "吊耳": "lifting lug",
    "手轮": "handwheel",
    "罩": "cover",
    "导": "guide",
    "套": "sleeve",
    "壳体": "housing",
    "倒角": "chamfer",
    "圆角": "fillet radius",
    "直径": "diameter",
    "半径": "radius",
    "深": "depth",
    "零件": "part",
    "装配图": "assembly drawing",
    "夹具": "fixture",
    "蜡烛": "candle",
    "手柄": "handle",
    "安装板": "mounting plate",
    "连接板": "connecting plate",
    # Assemblies, drives and seals.
    "组件": "assembly",
    "部件": "assembly",
    "电机": "motor",
    "电动机": "motor",
    "透盖": "cover",
    "闷盖": "blind cover",
    "止口": "spigot",
    "油封": "oil seal",
    "密封圈": "seal ring",
    "密封": "seal",
    "润滑脂": "grease",
    "轴颈": "journal",
    "中心孔": "centre hole",
    "键槽": "keyway",
    "外购": "bought-in",
    "颜色": "colour",
    "涂层": "coating",
    "平面度": "flatness",
    "表面": "surface",
    "浅灰": "light grey",
    "锂基": "lithium",
    "打标": "marking",
    "检验": "inspection",
}

#: English sense -> other English words for it (spelling variants and near synonyms).
SYNONYMS: dict[str, tuple[str, ...]] = {
    "anodised": ("anodized",),
    "galvanised": ("galvanized", "zinc plated"),
    "aluminium": ("aluminum",),
    "stainless": ("stainless steel",),
    "stainless steel": ("stainless",),
    "holder": ("mount",),
    "mount": ("holder",),
    "bracket": ("mount", "holder"),
    "lid": ("cover", "cap"),
    "cover": ("lid", "cap"),
    "cap": ("cover", "lid"),
    "shaft": ("axle",),
    "axle": ("shaft",),
    "hole": ("bore",),
    "bore": ("hole",),
    # German "Bolzen" is a pin as often as a bolt.
    "bolt": ("pin",),
    "pin": ("bolt",),
    "weight": ("mass",),
    "mass": ("weight",),
    "title": ("name",),
    "drawing number": ("drawing no", "dwg no", "part number"),
    "surface treatment": ("finish", "coating"),
    "roughness": ("surface finish",),
    "general tolerance": ("tolerance",),
    "sheet size": ("paper size", "format"),
    "revision": ("version",),
    "quantity": ("number of parts",),
    "colour": ("color",),
    # Other names of the parts the glossary gives one sense for ("Gabelkopf": clevis).
    "clevis": ("fork head",),
    "thrust pad": ("pressure pad", "pressure piece"),
    "counter shaft": ("intermediate shaft", "countershaft", "lay shaft"),
}

#: Foreign words that are also ordinary English words of another sense: :func:`senses` ignores
#: them when they stand alone in a text ("lock nut" is English), but not inside a compound.
FALSE_FRIENDS = frozenset(
    [
        "lock", "rad", "arm", "ring", "hus", "bas", "fas", "stift", "links", "mutter", "ram", "pump",
        "list", "led", "rem", "pass", "deck", "spanner", "sprint", "teller", "wand", "montage", "listen", "plate",
    ]
)  # fmt: skip

#: German and Swedish linking elements between the parts of a compound ("Zeichnung-s-nummer").
_LINKS = ("", "s", "e", "n", "en", "es")
#: Endings of plurals and definite forms ("Platten", "hållaren", "fästet").
_ENDINGS = ("", "e", "n", "en", "s", "es", "er", "et", "t", "na", "ar", "or", "arna", "erna")
_MIN_PART = 3
_LATIN = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*", re.UNICODE)
_HAN = re.compile(r"[\u3400-\u9fff]+")
_SHEET_ZH = re.compile(r"第\s*\d+\s*张")
_SEPARATORS = " \t:;.,/|-–=_()[]"
#: Words joining a label to its value: "Tolerance, if not indicated acc. to ISO 2768-mK".
_CONNECTIVE = re.compile(
    r"^(?:(?:acc(?:ording)?\.?\s*to|as per|per|to|enligt|enl\.|nach|gemäß|gemass|gem\.)"
    r"(?![^\W\d_])|按照?)[\s:.,]*",
    re.I,
)


def _fold(text: str) -> str:
    return text.lower().replace("ß", "ss")


def _plain(text: str) -> str:
    """Without accents: OCR with the English model reads "Ljushållare" as "Ljushallare"."""
    return "".join(
        ch for ch in unicodedata.normalize("NFKD", text) if not unicodedata.combining(ch)
    )


# Lookups by folded spelling ("maßstab" and "massstab" are one entry), accents optional.
_WORDS = {_plain(_fold(k)): v for k, v in WORDS.items()} | {_fold(k): v for k, v in WORDS.items()}
_HAN_TERMS = sorted(CHINESE, key=len, reverse=True)


def _word_sense(word: str) -> str | None:
    """Sense of one whole word, allowing an inflection ending."""
    for ending in _ENDINGS:
        if ending and not word.endswith(ending):
            continue
        stem = word[: len(word) - len(ending)] if ending else word
        if len(stem) >= _MIN_PART and stem in _WORDS:
            return _WORDS[stem]
    return None


@lru_cache(maxsize=4096)
def split_compound(word: str) -> tuple[str, ...]:
    """The known parts of a German or Swedish compound, or ``()`` if it does not split into them.

    "Adapterplatte" -> ("adapter", "platte"); "Ljushållare" -> ("ljus", "hållare");
    "Zeichnungsnummer" -> ("zeichnung", "nummer"). A word known whole is returned as one part.
    Linking letters (s, e, n, en, es) between parts and an inflection ending on the last are
    allowed. Of several splits, the one with the fewest parts wins.
    """
    w = _fold(word)
    if not w.isalpha():
        return ()
    # best[i]: the fewest known parts covering w[:i], as a tuple of stems.
    best: dict[int, tuple[str, ...]] = {0: ()}
    for i in range(len(w)):
        if i not in best:
            continue
        for j in range(i + _MIN_PART, len(w) + 1):
            stem = w[i:j]
            if stem not in _WORDS:
                continue
            for link in _LINKS:
                end = j + len(link)
                if w[j:end] != link or end > len(w):
                    continue
                cand = best[i] + (stem,)
                if end not in best or len(cand) < len(best[end]):
                    best[end] = cand
    n = len(w)
    for ending in _ENDINGS:
        if ending and not w.endswith(ending):
            continue
        cut = n - len(ending)
        if best.get(cut):
            return best[cut]
    return ()


def _latin_english(word: str) -> str | None:
    folded = _fold(word)
    sense = _word_sense(folded)
    if sense is not None:
        return sense
    parts = split_compound(folded)
    if len(parts) < 2:
        parts = _with_umlaut_read_as_i(folded)
    if len(parts) < 2:
        return None
    return " ".join(_WORDS[p] for p in parts)


def _with_umlaut_read_as_i(folded: str) -> tuple[str, ...]:
    """The parts of a compound whose "ü" the English OCR model read as "i" ("Fihrungsplatte" for
    "Führungsplatte"): tried only where the word does not split as read, and only a split into
    two or more known parts is taken."""
    for k, ch in enumerate(folded[:12]):
        if ch == "i":
            parts = split_compound(folded[:k] + "u" + folded[k + 1 :])
            if len(parts) >= 2:
                return parts
    return ()


def _han_english(run: str) -> tuple[str, bool]:
    """A run of Chinese text with its known terms given in English; True when any was known."""
    out: list[str] = []
    known = False
    i = 0
    while i < len(run):
        for term in _HAN_TERMS:
            if run.startswith(term, i):
                out.append(CHINESE[term])
                i += len(term)
                known = True
                break
        else:
            out.append(run[i])
            i += 1
    return " ".join(out), known


def english(term: str) -> str | None:
    """The English sense of a foreign drawing term or phrase, or None if none of it is known.

    "Anodiserad" -> "anodised"; "Adapterplatte" -> "adapter plate"; "Ljushållare" -> "candle
    holder"; "螺纹孔" -> "thread hole"; "Stål, förzinkad" -> "steel galvanised". Words that are not in
    the glossary are kept as they are, so "Halter 2" -> "holder 2".
    """
    pieces: list[str] = []
    known = False
    for match in re.finditer(r"[\u3400-\u9fff]+|[^\W_]+(?:-[^\W_]+)*", term, re.UNICODE):
        token = match.group(0)
        if _HAN.fullmatch(token):
            text, found = _han_english(token)
            pieces.append(text)
            known = known or found
            continue
        # A standalone English word ("ZINC PLATE CLEAR") keeps its English sense.
        plain = token.replace("-", "").isalpha() and _fold(token) not in FALSE_FRIENDS
        sense = _latin_english(token) if plain else None
        if sense is None:
            pieces.append(token)
        else:
            pieces.append(sense)
            known = True
    return " ".join(pieces) if known else None


#: Letters of English, Swedish and German words; anything else in a word is an OCR slip.
_ALPHABET = re.compile(r"[A-Za-zÅÄÖÜåäöüß]+")
_PLAIN_WORDS: dict[str, str] = {}
for _word in WORDS:
    _PLAIN_WORDS.setdefault(_plain(_fold(_word)), _word)


def known_spelling(word: str) -> str | None:
    """The glossary word an OCR reading of a Swedish or German word garbled, or None.

    The English OCR model reads "ö" as "6o" or "é" and drops the ring of "å": a word with a digit
    between its letters or a letter outside the two alphabets ("Kul6or", "Kulér") is taken for
    the glossary word it is one letter away from ("Kulör"), written in the word's case. Words
    without such a slip are left alone (English words are close to glossary words too).
    """
    if _ALPHABET.fullmatch(word) or not any(ch.isalpha() for ch in word):
        return None
    letters = _plain(_fold("".join(ch for ch in word if not ch.isdigit())))
    if not letters.isalpha() or len(letters) < 4:
        return None
    close = [
        spelled for plain, spelled in _PLAIN_WORDS.items() if edit_distance(plain, letters, 1) <= 1
    ]
    if len(close) != 1:
        return None
    spelled = close[0]
    return spelled.capitalize() if word[:1].isupper() else spelled


def translate(text: str) -> str:
    """The text with each known foreign drawing term replaced by its English sense in place, all
    else (numbers, units, punctuation, unknown words) kept: "Anodiserad 15-20µm Kulör: Natur" ->
    "anodised 15-20µm colour: natural". The text itself when it holds no known term."""

    def latin(match: re.Match[str]) -> str:
        word = match.group(0)
        if _fold(word) in FALSE_FRIENDS:
            return word  # "Lock nut" is English
        sense = _latin_english(word)
        return word if sense is None or sense == _fold(word) else sense

    def han(match: re.Match[str]) -> str:
        english_run, known = _han_english(match.group(0))
        return english_run if known else match.group(0)

    out = re.sub(r"(?<![^\W\d_])[^\W\d_]+(?![^\W_])", latin, text)
    return _HAN.sub(han, out)


def senses(text: str) -> list[str]:
    """English senses of the foreign drawing terms in a text, in order, each once.

    A sense that equals its own term ("Aluminium", "Adapter") is left out: the text says it already.
    A standalone word that is also ordinary English of another sense (see :data:`FALSE_FRIENDS`)
    is ignored; inside a compound it counts ("Lockhållare").
    """
    out: list[str] = []
    for run in _HAN.findall(text):
        i = 0
        while i < len(run):
            for term in _HAN_TERMS:
                if run.startswith(term, i):
                    out.append(CHINESE[term])
                    i += len(term)
                    break
            else:
                i += 1
    for token in _LATIN.findall(text):
        for word in token.split("-"):
            folded = _fold(word)
            if folded in FALSE_FRIENDS or len(folded) < _MIN_PART:
                continue
            sense = _latin_english(folded)
            if sense is not None and sense != folded:
                out.append(sense)
    return list(dict.fromkeys(out))


def synonyms(sense: str) -> tuple[str, ...]:
    """Other English words for an English sense ("anodised" -> ("anodized",)); may be empty."""
    return SYNONYMS.get(sense.lower().strip(), ())


class LabelMatch(NamedTuple):
    """A title-block label found at the start of a text, and what follows it."""

    #: The field the label names (a key of :data:`LABELS`).
    field: str
    #: The label as written in the text (all labels of that field it begins with, e.g. "Vikt/Massa").
    label: str
    #: The text after the label and its separators: the value when label and value share a cell.
    rest: str


# Each label also without its accents: the English OCR model reads "Oberfläche" as "Oberflache"
# and "Änderung" as "Anderung".
_LABEL_INDEX = sorted(
    {
        (spelled, name)
        for name, labels in LABELS.items()
        for label in labels
        for spelled in (_fold(label), _plain(_fold(label)))
    },
    key=lambda item: (-len(item[0]), item),
)


def _label_at(folded: str, start: int) -> tuple[str, int] | None:
    """(field, end) of the longest label beginning at ``start`` of a folded text."""
    sheet = _SHEET_ZH.match(folded, start)
    if sheet:
        return "sheet", sheet.end()
    for label, name in _LABEL_INDEX:
        if not folded.startswith(label, start):
            continue
        end = start + len(label)
        # Latin labels end at a word boundary ("Material" is not the start of "Materialien");
        # Chinese labels need none.
        if not _HAN.match(label[-1]) and end < len(folded) and folded[end].isalnum():
            continue
        return name, end
    return None


def strip_connective(text: str) -> str:
    """A value without the words that join it to its label ("acc. to ISO 2768-mK" -> "ISO 2768-mK")."""
    return _CONNECTIVE.sub("", text.strip(), count=1).strip()


def split_label(text: str) -> LabelMatch | None:
    """The field a text's leading label names, the label, and the rest of the text; or None.

    Labels are matched in English, Swedish, German and Chinese, case-insensitively, at the start of
    the text. Labels of the same field written together ("Vikt/Massa", "Benämning / Title") are
    taken as one label; the separators after it (":", "/", ".") are dropped from the rest.
    """
    stripped = text.lstrip(_SEPARATORS)
    folded = _fold(stripped)
    found = _label_at(folded, 0)
    if found is None:
        return None
    name, end = found
    while True:
        # Labels of one field written together: "Vikt/Massa", "Benämning / Title".
        pos = end
        while pos < len(folded) and folded[pos] in _SEPARATORS:
            pos += 1
        more = _label_at(folded, pos) if pos > end else None
        if more is None or more[0] != name:
            break
        end = more[1]
    rest_start = end
    while rest_start < len(folded) and folded[rest_start] in _SEPARATORS:
        rest_start += 1
    # Map the folded offsets back to the original text (each "ß" became two letters).
    orig_end = _orig_offset(stripped, end)
    orig_rest = _orig_offset(stripped, rest_start)
    rest = _CONNECTIVE.sub("", stripped[orig_rest:].strip(), count=1)
    return LabelMatch(name, stripped[:orig_end].strip(), rest.strip())


def _orig_offset(text: str, folded_offset: int) -> int:
    """The offset in ``text`` whose folded prefix has length ``folded_offset``."""
    count = 0
    for i, ch in enumerate(text):
        if count >= folded_offset:
            return i
        count += len(_fold(ch))
    return len(text)


def label_field(text: str) -> str | None:
    """Which title-block field a label names, in any of the four languages, or None.

    "Benämning" -> "title"; "Zeichnungsnummer" -> "drawing_number"; "Vikt/Massa" -> "weight";
    "未注公差" -> "general_tolerance"; "第 1 张" -> "sheet". The text may go on after the label
    ("Werkstoff: S235" -> "material").
    """
    found = split_label(text)
    return found.field if found else None


def field_labels(field: str) -> tuple[str, ...]:
    """The labels of a field in all four languages (lower case); empty for an unknown field."""
    return LABELS.get(field, ())
