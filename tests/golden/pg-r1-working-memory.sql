--
-- PostgreSQL database dump
--


-- Dumped from database version 15.18 (Debian 15.18-0+deb12u1)
-- Dumped by pg_dump version 15.18 (Debian 15.18-0+deb12u1)

SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

--
-- Name: journal_header_no_delete(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.journal_header_no_delete() RETURNS trigger
    LANGUAGE plpgsql
    AS $$ BEGIN RAISE EXCEPTION 'journal_header is append-only'; END $$;


--
-- Name: journal_header_no_update(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.journal_header_no_update() RETURNS trigger
    LANGUAGE plpgsql
    AS $$ BEGIN RAISE EXCEPTION 'journal_header is append-only'; END $$;


--
-- Name: journal_no_delete(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.journal_no_delete() RETURNS trigger
    LANGUAGE plpgsql
    AS $$ BEGIN RAISE EXCEPTION 'journal is append-only'; END $$;


--
-- Name: journal_no_update(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.journal_no_update() RETURNS trigger
    LANGUAGE plpgsql
    AS $$ BEGIN RAISE EXCEPTION 'journal is append-only'; END $$;


SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: alembic_version; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.alembic_version (
    version_num character varying(32) NOT NULL
);


--
-- Name: awmu_canon_requests; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.awmu_canon_requests (
    request_id text NOT NULL,
    context_id text NOT NULL,
    unit_id text NOT NULL,
    status text NOT NULL,
    body text NOT NULL
);


--
-- Name: awmu_context_owners; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.awmu_context_owners (
    context_id text NOT NULL,
    owner text NOT NULL,
    created_seq bigint NOT NULL
);


--
-- Name: awmu_contexts; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.awmu_contexts (
    context_id text NOT NULL,
    updated_seq bigint NOT NULL,
    body text NOT NULL
);


--
-- Name: awmu_events; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.awmu_events (
    seq bigint NOT NULL,
    idx integer NOT NULL,
    context_id text NOT NULL,
    kind text NOT NULL,
    unit_id text,
    body text NOT NULL
);


--
-- Name: awmu_reviews; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.awmu_reviews (
    review_id text NOT NULL,
    context_id text NOT NULL,
    status text NOT NULL,
    body text NOT NULL
);


--
-- Name: awmu_units; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.awmu_units (
    unit_id text NOT NULL,
    context_id text NOT NULL,
    status text NOT NULL,
    created_seq bigint NOT NULL,
    body text NOT NULL
);


--
-- Name: grants; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.grants (
    principal text NOT NULL,
    capability text NOT NULL,
    scope text NOT NULL,
    granted_seq bigint NOT NULL
);


--
-- Name: graph_blobs; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.graph_blobs (
    hash character varying(64) NOT NULL,
    data bytea NOT NULL
);


--
-- Name: graph_channel_values; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.graph_channel_values (
    thread_id text NOT NULL,
    checkpoint_ns text NOT NULL,
    channel text NOT NULL,
    version text NOT NULL,
    value_type text NOT NULL,
    value_hash character varying(64),
    written_seq bigint NOT NULL
);


--
-- Name: graph_checkpoints; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.graph_checkpoints (
    thread_id text NOT NULL,
    checkpoint_ns text NOT NULL,
    checkpoint_id text NOT NULL,
    parent_checkpoint_id text,
    checkpoint_type text NOT NULL,
    checkpoint_hash character varying(64) NOT NULL,
    metadata text NOT NULL,
    channel_versions text NOT NULL,
    written_seq bigint NOT NULL
);


--
-- Name: graph_store_items; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.graph_store_items (
    namespace text NOT NULL,
    key text NOT NULL,
    prefix text NOT NULL,
    value_hash character varying(64) NOT NULL,
    created_at text NOT NULL,
    updated_at text NOT NULL,
    expires_at text,
    ttl text,
    order_seq bigint NOT NULL,
    written_seq bigint NOT NULL
);


--
-- Name: graph_store_namespaces; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.graph_store_namespaces (
    namespace text NOT NULL,
    created_seq bigint NOT NULL
);


--
-- Name: graph_store_owners; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.graph_store_owners (
    prefix text NOT NULL,
    owner text NOT NULL,
    created_seq bigint NOT NULL
);


--
-- Name: graph_thread_owners; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.graph_thread_owners (
    thread_id text NOT NULL,
    owner text NOT NULL,
    created_seq bigint NOT NULL
);


--
-- Name: graph_writes; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.graph_writes (
    thread_id text NOT NULL,
    checkpoint_ns text NOT NULL,
    checkpoint_id text NOT NULL,
    task_id text NOT NULL,
    idx integer NOT NULL,
    channel text NOT NULL,
    task_path text NOT NULL,
    value_type text NOT NULL,
    value_hash character varying(64) NOT NULL,
    written_seq bigint NOT NULL
);


--
-- Name: journal; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.journal (
    seq bigint NOT NULL,
    recorded_at character varying(27) NOT NULL,
    syscall text NOT NULL,
    principal text NOT NULL,
    args bytea NOT NULL,
    status text NOT NULL,
    result bytea NOT NULL,
    effects_hash character varying(64) NOT NULL,
    prev_hash character varying(64) NOT NULL,
    entry_hash character varying(64) NOT NULL,
    CONSTRAINT journal_seq_positive CHECK ((seq >= 1))
);


--
-- Name: journal_header; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.journal_header (
    singleton integer NOT NULL,
    journal_id character varying(64) NOT NULL,
    format_version integer NOT NULL,
    created_at character varying(27) NOT NULL,
    genesis_hash character varying(64) NOT NULL,
    CONSTRAINT journal_header_single_row CHECK ((singleton = 1))
);


--
-- Name: journal_header_singleton_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.journal_header_singleton_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: journal_header_singleton_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.journal_header_singleton_seq OWNED BY public.journal_header.singleton;


--
-- Name: memory_entries; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.memory_entries (
    user_id text NOT NULL,
    key text NOT NULL,
    version integer NOT NULL,
    memory_type text NOT NULL,
    created_at character varying(27) NOT NULL,
    source text NOT NULL,
    notes text,
    value_ref text,
    expires_at character varying(27),
    revoked_at character varying(27),
    superseded_at character varying(27),
    governance text NOT NULL,
    written_seq bigint NOT NULL
);


--
-- Name: memory_entry_counts; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.memory_entry_counts (
    user_id text NOT NULL,
    entries bigint NOT NULL
);


--
-- Name: merkle_tiles; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.merkle_tiles (
    tile bigint NOT NULL,
    root character varying(64) NOT NULL
);


--
-- Name: merkle_tiles_tile_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.merkle_tiles_tile_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: merkle_tiles_tile_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.merkle_tiles_tile_seq OWNED BY public.merkle_tiles.tile;


--
-- Name: pipeline_runs; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.pipeline_runs (
    run_id text NOT NULL,
    user_id text NOT NULL,
    principal text NOT NULL,
    began_seq bigint NOT NULL,
    ended_seq bigint
);


--
-- Name: state_checkpoint_dirty; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.state_checkpoint_dirty (
    tbl text NOT NULL,
    part text NOT NULL,
    row_key text NOT NULL
);


--
-- Name: state_checkpoints; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.state_checkpoints (
    seq bigint NOT NULL,
    manifest_hash character varying(64) NOT NULL
);


--
-- Name: state_checkpoints_seq_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.state_checkpoints_seq_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: state_checkpoints_seq_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.state_checkpoints_seq_seq OWNED BY public.state_checkpoints.seq;


--
-- Name: journal_header singleton; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.journal_header ALTER COLUMN singleton SET DEFAULT nextval('public.journal_header_singleton_seq'::regclass);


--
-- Name: merkle_tiles tile; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.merkle_tiles ALTER COLUMN tile SET DEFAULT nextval('public.merkle_tiles_tile_seq'::regclass);


--
-- Name: state_checkpoints seq; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.state_checkpoints ALTER COLUMN seq SET DEFAULT nextval('public.state_checkpoints_seq_seq'::regclass);


--
-- Data for Name: alembic_version; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.alembic_version (version_num) FROM stdin;
0011
\.


--
-- Data for Name: awmu_canon_requests; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.awmu_canon_requests (request_id, context_id, unit_id, status, body) FROM stdin;
c40	tavern	u10-0	APPROVED	{"authority_at_request":"RELIABLE","context_id":"tavern","created_seq":40,"decided_by":"operator:alice","decided_seq":43,"reason":"central to the plot","request_id":"c40","requested_by":"agent:dm","status":"APPROVED","unit_id":"u10-0","unit_updated_seq":10}
c46	tavern	u14-0	REJECTED	{"authority_at_request":"RELIABLE","context_id":"tavern","created_seq":46,"decided_by":"operator:alice","decided_seq":47,"reason":"","request_id":"c46","requested_by":"agent:dm","status":"REJECTED","unit_id":"u14-0","unit_updated_seq":14}
c49	tavern	u11-0	APPROVED	{"authority_at_request":"RELIABLE","context_id":"tavern","created_seq":49,"decided_by":"agent:curator","decided_seq":50,"reason":"the keeper","request_id":"c49","requested_by":"agent:dm","status":"APPROVED","unit_id":"u11-0","unit_updated_seq":11}
\.


--
-- Data for Name: awmu_context_owners; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.awmu_context_owners (context_id, owner, created_seq) FROM stdin;
\.


--
-- Data for Name: awmu_contexts; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.awmu_contexts (context_id, updated_seq, body) FROM stdin;
tavern	151	{"config":{"admission":"gated","archive_floor":150,"auto_activate_threshold":0.65,"budget":20,"canonizers":["operator:*","admin:*"],"chars_per_token":4,"cold_multiplier":0.6,"conflict_policy":"resolve","default_source_authority":0.5,"eviction":"rank","half_life_turns":12.0,"hot_multiplier":1.5,"hot_threshold":600,"initial_rank":500,"invariants":[],"lexical_conflict_confidence":0.75,"lexical_conflict_overlap":0.5,"lifecycle_enabled":true,"max_rank":900,"min_rank":100,"operators":["operator:*","admin:*"],"promotion_enabled":true,"rank_enabled":true,"reinforcement_boost":50,"reliable_demote_below":400,"reliable_revisable":false,"revision_confidence_threshold":0.75,"source_authorities":{"dm":0.9,"player":0.3,"system":1.0},"trust_enabled":true,"trust_profile":"BALANCED","unreliable_demote_below":200,"upgrade_to_reliable_at":7,"upgrade_to_unreliable_at":3,"warm_multiplier":1.0,"warm_threshold":350},"context_id":"tavern","created_seq":1,"turn":40,"updated_seq":151,"window":[[36,0,0,0],[37,0,0,0],[38,0,0,0],[39,0,0,0],[40,0,0,2]]}
tiny	130	{"config":{"admission":"gated","archive_floor":150,"auto_activate_threshold":0.65,"budget":1,"canonizers":["operator:*","admin:*"],"chars_per_token":4,"cold_multiplier":0.6,"conflict_policy":"resolve","default_source_authority":0.5,"eviction":"rank","half_life_turns":12.0,"hot_multiplier":1.5,"hot_threshold":600,"initial_rank":500,"invariants":[],"lexical_conflict_confidence":0.75,"lexical_conflict_overlap":0.5,"lifecycle_enabled":true,"max_rank":900,"min_rank":100,"operators":["operator:*","admin:*"],"promotion_enabled":true,"rank_enabled":true,"reinforcement_boost":50,"reliable_demote_below":400,"reliable_revisable":false,"revision_confidence_threshold":0.75,"source_authorities":{"dm":0.9,"player":0.3,"system":1.0},"trust_enabled":true,"trust_profile":"BALANCED","unreliable_demote_below":200,"upgrade_to_reliable_at":7,"upgrade_to_unreliable_at":3,"warm_multiplier":1.0,"warm_threshold":350},"context_id":"tiny","created_seq":3,"turn":0,"updated_seq":130,"window":[[0,0,0,0]]}
vault	127	{"config":{"admission":"gated","archive_floor":200,"auto_activate_threshold":0.65,"budget":4,"canonizers":["operator:*","agent:curator"],"chars_per_token":3,"cold_multiplier":0.6,"conflict_policy":"resolve","default_source_authority":0.4,"eviction":"rank","half_life_turns":6.0,"hot_multiplier":1.5,"hot_threshold":600,"initial_rank":500,"invariants":[{"id":"gate-stays","minimum_authority":"RELIABLE","minimum_count":1,"strength":"MUST","type":"archive-prohibition","unit_text_pattern":"gate"},{"id":"one-reliable-vault","minimum_authority":"RELIABLE","minimum_count":1,"strength":"MUST","type":"min-authority-count","unit_text_pattern":"vault"},{"id":"guard-floor","minimum_authority":"RELIABLE","minimum_count":1,"strength":"SHOULD","type":"authority-floor","unit_text_pattern":"guard"},{"id":"guard-stays","minimum_authority":"RELIABLE","minimum_count":1,"strength":"MUST","type":"eviction-immunity","unit_text_pattern":"guard"}],"lexical_conflict_confidence":0.75,"lexical_conflict_overlap":0.5,"lifecycle_enabled":true,"max_rank":900,"min_rank":100,"operators":["operator:*","admin:*"],"promotion_enabled":true,"rank_enabled":true,"reinforcement_boost":50,"reliable_demote_below":400,"reliable_revisable":true,"revision_confidence_threshold":0.75,"source_authorities":{"captain":0.95,"rumour":0.1},"trust_enabled":true,"trust_profile":"SECURE","unreliable_demote_below":200,"upgrade_to_reliable_at":7,"upgrade_to_unreliable_at":3,"warm_multiplier":1.0,"warm_threshold":350},"context_id":"vault","created_seq":2,"turn":8,"updated_seq":127,"window":[[4,0,0,0],[5,0,1,0],[6,0,0,0],[7,0,0,0],[8,0,1,0]]}
\.


--
-- Data for Name: awmu_events; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.awmu_events (seq, idx, context_id, kind, unit_id, body) FROM stdin;
9	0	tavern	created	u9-0	{"context_id":"tavern","detail":{"authority":"PROVISIONAL","pinned":false,"rank":500,"source":"system"},"index":0,"kind":"created","seq":9,"turn":0,"unit_id":"u9-0"}
10	0	tavern	created	u10-0	{"context_id":"tavern","detail":{"authority":"RELIABLE","pinned":false,"rank":700,"source":"operator"},"index":0,"kind":"created","seq":10,"turn":0,"unit_id":"u10-0"}
11	0	tavern	created	u11-0	{"context_id":"tavern","detail":{"authority":"RELIABLE","pinned":true,"rank":500,"source":"operator"},"index":0,"kind":"created","seq":11,"turn":0,"unit_id":"u11-0"}
12	0	tavern	created	u12-0	{"context_id":"tavern","detail":{"authority":"UNRELIABLE","pinned":false,"rank":300,"source":"operator"},"index":0,"kind":"created","seq":12,"turn":0,"unit_id":"u12-0"}
13	0	tavern	created	u13-0	{"context_id":"tavern","detail":{"authority":"UNRELIABLE","pinned":false,"rank":450,"source":"operator"},"index":0,"kind":"created","seq":13,"turn":0,"unit_id":"u13-0"}
14	0	tavern	created	u14-0	{"context_id":"tavern","detail":{"authority":"RELIABLE","pinned":false,"rank":500,"source":"ledger"},"index":0,"kind":"created","seq":14,"turn":0,"unit_id":"u14-0"}
15	0	tavern	duplicate	u10-0	{"context_id":"tavern","detail":{"source":"operator"},"index":0,"kind":"duplicate","seq":15,"turn":0,"unit_id":"u10-0"}
21	0	tavern	rejected	\N	{"context_id":"tavern","detail":{"confidence":0.4,"reason":"low_confidence","source":"player"},"index":0,"kind":"rejected","seq":21,"turn":0,"unit_id":null}
22	0	tavern	duplicate	u9-0	{"context_id":"tavern","detail":{"source":"dm"},"index":0,"kind":"duplicate","seq":22,"turn":0,"unit_id":"u9-0"}
23	0	tavern	conflict	u10-0	{"context_id":"tavern","detail":{"resolution":"KEEP_EXISTING","source":"player","type":"CONTRADICTION"},"index":0,"kind":"conflict","seq":23,"turn":0,"unit_id":"u10-0"}
23	1	tavern	rejected	\N	{"context_id":"tavern","detail":{"reason":"conflict","source":"player"},"index":1,"kind":"rejected","seq":23,"turn":0,"unit_id":null}
24	0	tavern	queued	\N	{"context_id":"tavern","detail":{"review_id":"r24","score":0.574,"source":"dm"},"index":0,"kind":"queued","seq":24,"turn":0,"unit_id":null}
25	0	tavern	queued	\N	{"context_id":"tavern","detail":{"review_id":"r25","score":0.581556,"source":"dm"},"index":0,"kind":"queued","seq":25,"turn":0,"unit_id":null}
26	0	tavern	rejected	\N	{"context_id":"tavern","detail":{"reason":"trust_archive","score":0.392756,"source":"player"},"index":0,"kind":"rejected","seq":26,"turn":0,"unit_id":null}
27	0	tavern	conflict	u9-0	{"context_id":"tavern","detail":{"resolution":"REPLACE","source":"system","type":"CONTRADICTION"},"index":0,"kind":"conflict","seq":27,"turn":0,"unit_id":"u9-0"}
27	1	tavern	superseded	u9-0	{"context_id":"tavern","detail":{"superseded_by":"u27-0"},"index":1,"kind":"superseded","seq":27,"turn":0,"unit_id":"u9-0"}
27	2	tavern	created	u27-0	{"context_id":"tavern","detail":{"authority":"PROVISIONAL","pinned":false,"rank":500,"source":"system"},"index":2,"kind":"created","seq":27,"turn":0,"unit_id":"u27-0"}
28	0	tavern	conflict	u13-0	{"context_id":"tavern","detail":{"resolution":"REPLACE","source":"system","type":"REVISION"},"index":0,"kind":"conflict","seq":28,"turn":0,"unit_id":"u13-0"}
28	1	tavern	superseded	u13-0	{"context_id":"tavern","detail":{"superseded_by":"u28-0"},"index":1,"kind":"superseded","seq":28,"turn":0,"unit_id":"u13-0"}
28	2	tavern	created	u28-0	{"context_id":"tavern","detail":{"authority":"PROVISIONAL","pinned":false,"rank":500,"source":"system"},"index":2,"kind":"created","seq":28,"turn":0,"unit_id":"u28-0"}
29	0	tavern	conflict	u14-0	{"context_id":"tavern","detail":{"resolution":"COEXIST","source":"system","type":"WORLD_PROGRESSION"},"index":0,"kind":"conflict","seq":29,"turn":0,"unit_id":"u14-0"}
29	1	tavern	created	u29-0	{"context_id":"tavern","detail":{"authority":"PROVISIONAL","pinned":false,"rank":500,"source":"system"},"index":1,"kind":"created","seq":29,"turn":0,"unit_id":"u29-0"}
34	0	tavern	created	u34-0	{"context_id":"tavern","detail":{"authority":"PROVISIONAL","pinned":false,"rank":500,"source":"dm"},"index":0,"kind":"created","seq":34,"turn":0,"unit_id":"u34-0"}
34	1	tavern	review_decided	u34-0	{"context_id":"tavern","detail":{"note":"fits the module","review_id":"r24","status":"APPROVED"},"index":1,"kind":"review_decided","seq":34,"turn":0,"unit_id":"u34-0"}
35	0	tavern	review_decided	\N	{"context_id":"tavern","detail":{"note":"no evidence","review_id":"r25","status":"REJECTED"},"index":0,"kind":"review_decided","seq":35,"turn":0,"unit_id":null}
40	0	tavern	canon_requested	u10-0	{"context_id":"tavern","detail":{"by":"agent:dm","request_id":"c40"},"index":0,"kind":"canon_requested","seq":40,"turn":0,"unit_id":"u10-0"}
43	0	tavern	canon_decided	u10-0	{"context_id":"tavern","detail":{"note":"","request_id":"c40","status":"APPROVED"},"index":0,"kind":"canon_decided","seq":43,"turn":0,"unit_id":"u10-0"}
43	1	tavern	authority_changed	u10-0	{"context_id":"tavern","detail":{"after":"CANON","before":"RELIABLE","by":"operator:alice","direction":"up","reason":"canonization","request_id":"c40"},"index":1,"kind":"authority_changed","seq":43,"turn":0,"unit_id":"u10-0"}
46	0	tavern	canon_requested	u14-0	{"context_id":"tavern","detail":{"by":"agent:dm","request_id":"c46"},"index":0,"kind":"canon_requested","seq":46,"turn":0,"unit_id":"u14-0"}
47	0	tavern	canon_decided	u14-0	{"context_id":"tavern","detail":{"note":"not yet","request_id":"c46","status":"REJECTED"},"index":0,"kind":"canon_decided","seq":47,"turn":0,"unit_id":"u14-0"}
49	0	tavern	canon_requested	u11-0	{"context_id":"tavern","detail":{"by":"agent:dm","request_id":"c49"},"index":0,"kind":"canon_requested","seq":49,"turn":0,"unit_id":"u11-0"}
50	0	tavern	canon_decided	u11-0	{"context_id":"tavern","detail":{"note":"","request_id":"c49","status":"APPROVED"},"index":0,"kind":"canon_decided","seq":50,"turn":0,"unit_id":"u11-0"}
50	1	tavern	authority_changed	u11-0	{"context_id":"tavern","detail":{"after":"CANON","before":"RELIABLE","by":"agent:curator","direction":"up","reason":"canonization","request_id":"c49"},"index":1,"kind":"authority_changed","seq":50,"turn":0,"unit_id":"u11-0"}
54	0	tavern	pinned	u28-0	{"context_id":"tavern","detail":{},"index":0,"kind":"pinned","seq":54,"turn":0,"unit_id":"u28-0"}
56	0	tavern	unpinned	u28-0	{"context_id":"tavern","detail":{},"index":0,"kind":"unpinned","seq":56,"turn":0,"unit_id":"u28-0"}
59	0	tavern	created	u59-0	{"context_id":"tavern","detail":{"authority":"PROVISIONAL","pinned":false,"rank":500,"source":"system"},"index":0,"kind":"created","seq":59,"turn":0,"unit_id":"u59-0"}
60	0	tavern	archived	u59-0	{"context_id":"tavern","detail":{"by":"operator:alice","reason":"the wolves left"},"index":0,"kind":"archived","seq":60,"turn":0,"unit_id":"u59-0"}
66	0	tavern	reinforced	u34-0	{"context_id":"tavern","detail":{"after":550,"before":500,"count":1},"index":0,"kind":"reinforced","seq":66,"turn":1,"unit_id":"u34-0"}
66	1	tavern	decayed	u12-0	{"context_id":"tavern","detail":{"after":272,"before":300},"index":1,"kind":"decayed","seq":66,"turn":1,"unit_id":"u12-0"}
66	2	tavern	decayed	u14-0	{"context_id":"tavern","detail":{"after":471,"before":500},"index":2,"kind":"decayed","seq":66,"turn":1,"unit_id":"u14-0"}
66	3	tavern	decayed	u27-0	{"context_id":"tavern","detail":{"after":471,"before":500},"index":3,"kind":"decayed","seq":66,"turn":1,"unit_id":"u27-0"}
66	4	tavern	decayed	u28-0	{"context_id":"tavern","detail":{"after":471,"before":500},"index":4,"kind":"decayed","seq":66,"turn":1,"unit_id":"u28-0"}
66	5	tavern	decayed	u29-0	{"context_id":"tavern","detail":{"after":471,"before":500},"index":5,"kind":"decayed","seq":66,"turn":1,"unit_id":"u29-0"}
66	6	tavern	turn	\N	{"context_id":"tavern","detail":{"decayed":5,"reinforced":1},"index":6,"kind":"turn","seq":66,"turn":1,"unit_id":null}
67	0	tavern	reinforced	u34-0	{"context_id":"tavern","detail":{"after":600,"before":550,"count":2},"index":0,"kind":"reinforced","seq":67,"turn":2,"unit_id":"u34-0"}
67	1	tavern	decayed	u12-0	{"context_id":"tavern","detail":{"after":247,"before":272},"index":1,"kind":"decayed","seq":67,"turn":2,"unit_id":"u12-0"}
67	2	tavern	decayed	u14-0	{"context_id":"tavern","detail":{"after":444,"before":471},"index":2,"kind":"decayed","seq":67,"turn":2,"unit_id":"u14-0"}
67	3	tavern	decayed	u27-0	{"context_id":"tavern","detail":{"after":444,"before":471},"index":3,"kind":"decayed","seq":67,"turn":2,"unit_id":"u27-0"}
67	4	tavern	decayed	u28-0	{"context_id":"tavern","detail":{"after":444,"before":471},"index":4,"kind":"decayed","seq":67,"turn":2,"unit_id":"u28-0"}
67	5	tavern	decayed	u29-0	{"context_id":"tavern","detail":{"after":444,"before":471},"index":5,"kind":"decayed","seq":67,"turn":2,"unit_id":"u29-0"}
67	6	tavern	turn	\N	{"context_id":"tavern","detail":{"decayed":5,"reinforced":1},"index":6,"kind":"turn","seq":67,"turn":2,"unit_id":null}
68	0	tavern	reinforced	u34-0	{"context_id":"tavern","detail":{"after":650,"before":600,"count":3},"index":0,"kind":"reinforced","seq":68,"turn":3,"unit_id":"u34-0"}
68	1	tavern	authority_changed	u34-0	{"context_id":"tavern","detail":{"after":"UNRELIABLE","before":"PROVISIONAL","count":3,"direction":"up","reason":"reinforcement"},"index":1,"kind":"authority_changed","seq":68,"turn":3,"unit_id":"u34-0"}
68	2	tavern	decayed	u12-0	{"context_id":"tavern","detail":{"after":224,"before":247},"index":2,"kind":"decayed","seq":68,"turn":3,"unit_id":"u12-0"}
68	3	tavern	decayed	u14-0	{"context_id":"tavern","detail":{"after":419,"before":444},"index":3,"kind":"decayed","seq":68,"turn":3,"unit_id":"u14-0"}
68	4	tavern	decayed	u27-0	{"context_id":"tavern","detail":{"after":419,"before":444},"index":4,"kind":"decayed","seq":68,"turn":3,"unit_id":"u27-0"}
68	5	tavern	decayed	u28-0	{"context_id":"tavern","detail":{"after":419,"before":444},"index":5,"kind":"decayed","seq":68,"turn":3,"unit_id":"u28-0"}
68	6	tavern	decayed	u29-0	{"context_id":"tavern","detail":{"after":419,"before":444},"index":6,"kind":"decayed","seq":68,"turn":3,"unit_id":"u29-0"}
68	7	tavern	turn	\N	{"context_id":"tavern","detail":{"decayed":5,"reinforced":1},"index":7,"kind":"turn","seq":68,"turn":3,"unit_id":null}
69	0	tavern	reinforced	u34-0	{"context_id":"tavern","detail":{"after":700,"before":650,"count":4},"index":0,"kind":"reinforced","seq":69,"turn":4,"unit_id":"u34-0"}
69	1	tavern	decayed	u12-0	{"context_id":"tavern","detail":{"after":203,"before":224},"index":1,"kind":"decayed","seq":69,"turn":4,"unit_id":"u12-0"}
69	2	tavern	decayed	u14-0	{"context_id":"tavern","detail":{"after":395,"before":419},"index":2,"kind":"decayed","seq":69,"turn":4,"unit_id":"u14-0"}
69	3	tavern	authority_changed	u14-0	{"context_id":"tavern","detail":{"after":"UNRELIABLE","before":"RELIABLE","direction":"down","rank":395,"reason":"rank"},"index":3,"kind":"authority_changed","seq":69,"turn":4,"unit_id":"u14-0"}
69	4	tavern	decayed	u27-0	{"context_id":"tavern","detail":{"after":395,"before":419},"index":4,"kind":"decayed","seq":69,"turn":4,"unit_id":"u27-0"}
69	5	tavern	decayed	u28-0	{"context_id":"tavern","detail":{"after":395,"before":419},"index":5,"kind":"decayed","seq":69,"turn":4,"unit_id":"u28-0"}
69	6	tavern	decayed	u29-0	{"context_id":"tavern","detail":{"after":395,"before":419},"index":6,"kind":"decayed","seq":69,"turn":4,"unit_id":"u29-0"}
69	7	tavern	turn	\N	{"context_id":"tavern","detail":{"decayed":5,"reinforced":1},"index":7,"kind":"turn","seq":69,"turn":4,"unit_id":null}
70	0	tavern	reinforced	u28-0	{"context_id":"tavern","detail":{"after":445,"before":395,"count":1},"index":0,"kind":"reinforced","seq":70,"turn":5,"unit_id":"u28-0"}
70	1	tavern	reinforced	u34-0	{"context_id":"tavern","detail":{"after":750,"before":700,"count":5},"index":1,"kind":"reinforced","seq":70,"turn":5,"unit_id":"u34-0"}
70	2	tavern	decayed	u12-0	{"context_id":"tavern","detail":{"after":184,"before":203},"index":2,"kind":"decayed","seq":70,"turn":5,"unit_id":"u12-0"}
70	3	tavern	authority_changed	u12-0	{"context_id":"tavern","detail":{"after":"PROVISIONAL","before":"UNRELIABLE","direction":"down","rank":184,"reason":"rank"},"index":3,"kind":"authority_changed","seq":70,"turn":5,"unit_id":"u12-0"}
70	4	tavern	decayed	u14-0	{"context_id":"tavern","detail":{"after":372,"before":395},"index":4,"kind":"decayed","seq":70,"turn":5,"unit_id":"u14-0"}
70	5	tavern	decayed	u27-0	{"context_id":"tavern","detail":{"after":372,"before":395},"index":5,"kind":"decayed","seq":70,"turn":5,"unit_id":"u27-0"}
70	6	tavern	decayed	u29-0	{"context_id":"tavern","detail":{"after":372,"before":395},"index":6,"kind":"decayed","seq":70,"turn":5,"unit_id":"u29-0"}
70	7	tavern	turn	\N	{"context_id":"tavern","detail":{"decayed":4,"reinforced":2},"index":7,"kind":"turn","seq":70,"turn":5,"unit_id":null}
71	0	tavern	reinforced	u34-0	{"context_id":"tavern","detail":{"after":800,"before":750,"count":6},"index":0,"kind":"reinforced","seq":71,"turn":6,"unit_id":"u34-0"}
71	1	tavern	decayed	u12-0	{"context_id":"tavern","detail":{"after":167,"before":184},"index":1,"kind":"decayed","seq":71,"turn":6,"unit_id":"u12-0"}
71	2	tavern	decayed	u14-0	{"context_id":"tavern","detail":{"after":351,"before":372},"index":2,"kind":"decayed","seq":71,"turn":6,"unit_id":"u14-0"}
71	3	tavern	decayed	u27-0	{"context_id":"tavern","detail":{"after":351,"before":372},"index":3,"kind":"decayed","seq":71,"turn":6,"unit_id":"u27-0"}
71	4	tavern	decayed	u28-0	{"context_id":"tavern","detail":{"after":420,"before":445},"index":4,"kind":"decayed","seq":71,"turn":6,"unit_id":"u28-0"}
71	5	tavern	decayed	u29-0	{"context_id":"tavern","detail":{"after":351,"before":372},"index":5,"kind":"decayed","seq":71,"turn":6,"unit_id":"u29-0"}
71	6	tavern	turn	\N	{"context_id":"tavern","detail":{"decayed":5,"reinforced":1},"index":6,"kind":"turn","seq":71,"turn":6,"unit_id":null}
72	0	tavern	reinforced	u34-0	{"context_id":"tavern","detail":{"after":850,"before":800,"count":7},"index":0,"kind":"reinforced","seq":72,"turn":7,"unit_id":"u34-0"}
72	1	tavern	decayed	u12-0	{"context_id":"tavern","detail":{"after":151,"before":167},"index":1,"kind":"decayed","seq":72,"turn":7,"unit_id":"u12-0"}
72	2	tavern	decayed	u14-0	{"context_id":"tavern","detail":{"after":331,"before":351},"index":2,"kind":"decayed","seq":72,"turn":7,"unit_id":"u14-0"}
72	3	tavern	decayed	u27-0	{"context_id":"tavern","detail":{"after":331,"before":351},"index":3,"kind":"decayed","seq":72,"turn":7,"unit_id":"u27-0"}
72	4	tavern	decayed	u28-0	{"context_id":"tavern","detail":{"after":396,"before":420},"index":4,"kind":"decayed","seq":72,"turn":7,"unit_id":"u28-0"}
72	5	tavern	decayed	u29-0	{"context_id":"tavern","detail":{"after":331,"before":351},"index":5,"kind":"decayed","seq":72,"turn":7,"unit_id":"u29-0"}
72	6	tavern	turn	\N	{"context_id":"tavern","detail":{"decayed":5,"reinforced":1},"index":6,"kind":"turn","seq":72,"turn":7,"unit_id":null}
73	0	tavern	reinforced	u34-0	{"context_id":"tavern","detail":{"after":900,"before":850,"count":8},"index":0,"kind":"reinforced","seq":73,"turn":8,"unit_id":"u34-0"}
73	1	tavern	decayed	u12-0	{"context_id":"tavern","detail":{"after":137,"before":151},"index":1,"kind":"decayed","seq":73,"turn":8,"unit_id":"u12-0"}
73	2	tavern	archived	u12-0	{"context_id":"tavern","detail":{"rank":137,"reason":"decay"},"index":2,"kind":"archived","seq":73,"turn":8,"unit_id":"u12-0"}
73	3	tavern	decayed	u14-0	{"context_id":"tavern","detail":{"after":300,"before":331},"index":3,"kind":"decayed","seq":73,"turn":8,"unit_id":"u14-0"}
73	4	tavern	decayed	u27-0	{"context_id":"tavern","detail":{"after":300,"before":331},"index":4,"kind":"decayed","seq":73,"turn":8,"unit_id":"u27-0"}
73	5	tavern	decayed	u28-0	{"context_id":"tavern","detail":{"after":373,"before":396},"index":5,"kind":"decayed","seq":73,"turn":8,"unit_id":"u28-0"}
73	6	tavern	decayed	u29-0	{"context_id":"tavern","detail":{"after":300,"before":331},"index":6,"kind":"decayed","seq":73,"turn":8,"unit_id":"u29-0"}
73	7	tavern	turn	\N	{"context_id":"tavern","detail":{"decayed":5,"reinforced":1},"index":7,"kind":"turn","seq":73,"turn":8,"unit_id":null}
74	0	tavern	reinforced	u34-0	{"context_id":"tavern","detail":{"after":900,"before":900,"count":9},"index":0,"kind":"reinforced","seq":74,"turn":9,"unit_id":"u34-0"}
74	1	tavern	decayed	u14-0	{"context_id":"tavern","detail":{"after":272,"before":300},"index":1,"kind":"decayed","seq":74,"turn":9,"unit_id":"u14-0"}
74	2	tavern	decayed	u27-0	{"context_id":"tavern","detail":{"after":272,"before":300},"index":2,"kind":"decayed","seq":74,"turn":9,"unit_id":"u27-0"}
74	3	tavern	decayed	u28-0	{"context_id":"tavern","detail":{"after":352,"before":373},"index":3,"kind":"decayed","seq":74,"turn":9,"unit_id":"u28-0"}
74	4	tavern	decayed	u29-0	{"context_id":"tavern","detail":{"after":272,"before":300},"index":4,"kind":"decayed","seq":74,"turn":9,"unit_id":"u29-0"}
74	5	tavern	turn	\N	{"context_id":"tavern","detail":{"decayed":4,"reinforced":1},"index":5,"kind":"turn","seq":74,"turn":9,"unit_id":null}
75	0	tavern	reinforced	u28-0	{"context_id":"tavern","detail":{"after":402,"before":352,"count":2},"index":0,"kind":"reinforced","seq":75,"turn":10,"unit_id":"u28-0"}
75	1	tavern	reinforced	u34-0	{"context_id":"tavern","detail":{"after":900,"before":900,"count":10},"index":1,"kind":"reinforced","seq":75,"turn":10,"unit_id":"u34-0"}
75	2	tavern	decayed	u14-0	{"context_id":"tavern","detail":{"after":247,"before":272},"index":2,"kind":"decayed","seq":75,"turn":10,"unit_id":"u14-0"}
75	3	tavern	decayed	u27-0	{"context_id":"tavern","detail":{"after":247,"before":272},"index":3,"kind":"decayed","seq":75,"turn":10,"unit_id":"u27-0"}
75	4	tavern	decayed	u29-0	{"context_id":"tavern","detail":{"after":247,"before":272},"index":4,"kind":"decayed","seq":75,"turn":10,"unit_id":"u29-0"}
75	5	tavern	turn	\N	{"context_id":"tavern","detail":{"decayed":3,"reinforced":2},"index":5,"kind":"turn","seq":75,"turn":10,"unit_id":null}
76	0	tavern	reinforced	u34-0	{"context_id":"tavern","detail":{"after":900,"before":900,"count":11},"index":0,"kind":"reinforced","seq":76,"turn":11,"unit_id":"u34-0"}
76	1	tavern	decayed	u14-0	{"context_id":"tavern","detail":{"after":224,"before":247},"index":1,"kind":"decayed","seq":76,"turn":11,"unit_id":"u14-0"}
76	2	tavern	decayed	u27-0	{"context_id":"tavern","detail":{"after":224,"before":247},"index":2,"kind":"decayed","seq":76,"turn":11,"unit_id":"u27-0"}
76	3	tavern	decayed	u28-0	{"context_id":"tavern","detail":{"after":379,"before":402},"index":3,"kind":"decayed","seq":76,"turn":11,"unit_id":"u28-0"}
76	4	tavern	decayed	u29-0	{"context_id":"tavern","detail":{"after":224,"before":247},"index":4,"kind":"decayed","seq":76,"turn":11,"unit_id":"u29-0"}
76	5	tavern	turn	\N	{"context_id":"tavern","detail":{"decayed":4,"reinforced":1},"index":5,"kind":"turn","seq":76,"turn":11,"unit_id":null}
77	0	tavern	reinforced	u34-0	{"context_id":"tavern","detail":{"after":900,"before":900,"count":12},"index":0,"kind":"reinforced","seq":77,"turn":12,"unit_id":"u34-0"}
77	1	tavern	decayed	u14-0	{"context_id":"tavern","detail":{"after":203,"before":224},"index":1,"kind":"decayed","seq":77,"turn":12,"unit_id":"u14-0"}
77	2	tavern	decayed	u27-0	{"context_id":"tavern","detail":{"after":203,"before":224},"index":2,"kind":"decayed","seq":77,"turn":12,"unit_id":"u27-0"}
77	3	tavern	decayed	u28-0	{"context_id":"tavern","detail":{"after":357,"before":379},"index":3,"kind":"decayed","seq":77,"turn":12,"unit_id":"u28-0"}
77	4	tavern	decayed	u29-0	{"context_id":"tavern","detail":{"after":203,"before":224},"index":4,"kind":"decayed","seq":77,"turn":12,"unit_id":"u29-0"}
77	5	tavern	turn	\N	{"context_id":"tavern","detail":{"decayed":4,"reinforced":1},"index":5,"kind":"turn","seq":77,"turn":12,"unit_id":null}
78	0	tavern	reinforced	u34-0	{"context_id":"tavern","detail":{"after":900,"before":900,"count":13},"index":0,"kind":"reinforced","seq":78,"turn":13,"unit_id":"u34-0"}
78	1	tavern	decayed	u14-0	{"context_id":"tavern","detail":{"after":184,"before":203},"index":1,"kind":"decayed","seq":78,"turn":13,"unit_id":"u14-0"}
78	2	tavern	authority_changed	u14-0	{"context_id":"tavern","detail":{"after":"PROVISIONAL","before":"UNRELIABLE","direction":"down","rank":184,"reason":"rank"},"index":2,"kind":"authority_changed","seq":78,"turn":13,"unit_id":"u14-0"}
78	3	tavern	decayed	u27-0	{"context_id":"tavern","detail":{"after":184,"before":203},"index":3,"kind":"decayed","seq":78,"turn":13,"unit_id":"u27-0"}
78	4	tavern	decayed	u28-0	{"context_id":"tavern","detail":{"after":336,"before":357},"index":4,"kind":"decayed","seq":78,"turn":13,"unit_id":"u28-0"}
78	5	tavern	decayed	u29-0	{"context_id":"tavern","detail":{"after":184,"before":203},"index":5,"kind":"decayed","seq":78,"turn":13,"unit_id":"u29-0"}
78	6	tavern	turn	\N	{"context_id":"tavern","detail":{"decayed":4,"reinforced":1},"index":6,"kind":"turn","seq":78,"turn":13,"unit_id":null}
79	0	tavern	reinforced	u34-0	{"context_id":"tavern","detail":{"after":900,"before":900,"count":14},"index":0,"kind":"reinforced","seq":79,"turn":14,"unit_id":"u34-0"}
79	1	tavern	decayed	u14-0	{"context_id":"tavern","detail":{"after":167,"before":184},"index":1,"kind":"decayed","seq":79,"turn":14,"unit_id":"u14-0"}
79	2	tavern	decayed	u27-0	{"context_id":"tavern","detail":{"after":167,"before":184},"index":2,"kind":"decayed","seq":79,"turn":14,"unit_id":"u27-0"}
79	3	tavern	decayed	u28-0	{"context_id":"tavern","detail":{"after":305,"before":336},"index":3,"kind":"decayed","seq":79,"turn":14,"unit_id":"u28-0"}
79	4	tavern	decayed	u29-0	{"context_id":"tavern","detail":{"after":167,"before":184},"index":4,"kind":"decayed","seq":79,"turn":14,"unit_id":"u29-0"}
79	5	tavern	turn	\N	{"context_id":"tavern","detail":{"decayed":4,"reinforced":1},"index":5,"kind":"turn","seq":79,"turn":14,"unit_id":null}
80	0	tavern	reinforced	u28-0	{"context_id":"tavern","detail":{"after":355,"before":305,"count":3},"index":0,"kind":"reinforced","seq":80,"turn":15,"unit_id":"u28-0"}
80	1	tavern	authority_changed	u28-0	{"context_id":"tavern","detail":{"after":"UNRELIABLE","before":"PROVISIONAL","count":3,"direction":"up","reason":"reinforcement"},"index":1,"kind":"authority_changed","seq":80,"turn":15,"unit_id":"u28-0"}
80	2	tavern	reinforced	u34-0	{"context_id":"tavern","detail":{"after":900,"before":900,"count":15},"index":2,"kind":"reinforced","seq":80,"turn":15,"unit_id":"u34-0"}
80	3	tavern	decayed	u14-0	{"context_id":"tavern","detail":{"after":151,"before":167},"index":3,"kind":"decayed","seq":80,"turn":15,"unit_id":"u14-0"}
80	4	tavern	decayed	u27-0	{"context_id":"tavern","detail":{"after":151,"before":167},"index":4,"kind":"decayed","seq":80,"turn":15,"unit_id":"u27-0"}
80	5	tavern	decayed	u29-0	{"context_id":"tavern","detail":{"after":151,"before":167},"index":5,"kind":"decayed","seq":80,"turn":15,"unit_id":"u29-0"}
80	6	tavern	turn	\N	{"context_id":"tavern","detail":{"decayed":3,"reinforced":2},"index":6,"kind":"turn","seq":80,"turn":15,"unit_id":null}
81	0	tavern	reinforced	u34-0	{"context_id":"tavern","detail":{"after":900,"before":900,"count":16},"index":0,"kind":"reinforced","seq":81,"turn":16,"unit_id":"u34-0"}
81	1	tavern	decayed	u14-0	{"context_id":"tavern","detail":{"after":137,"before":151},"index":1,"kind":"decayed","seq":81,"turn":16,"unit_id":"u14-0"}
81	2	tavern	archived	u14-0	{"context_id":"tavern","detail":{"rank":137,"reason":"decay"},"index":2,"kind":"archived","seq":81,"turn":16,"unit_id":"u14-0"}
81	3	tavern	decayed	u27-0	{"context_id":"tavern","detail":{"after":137,"before":151},"index":3,"kind":"decayed","seq":81,"turn":16,"unit_id":"u27-0"}
81	4	tavern	archived	u27-0	{"context_id":"tavern","detail":{"rank":137,"reason":"decay"},"index":4,"kind":"archived","seq":81,"turn":16,"unit_id":"u27-0"}
81	5	tavern	decayed	u28-0	{"context_id":"tavern","detail":{"after":335,"before":355},"index":5,"kind":"decayed","seq":81,"turn":16,"unit_id":"u28-0"}
81	6	tavern	decayed	u29-0	{"context_id":"tavern","detail":{"after":137,"before":151},"index":6,"kind":"decayed","seq":81,"turn":16,"unit_id":"u29-0"}
81	7	tavern	archived	u29-0	{"context_id":"tavern","detail":{"rank":137,"reason":"decay"},"index":7,"kind":"archived","seq":81,"turn":16,"unit_id":"u29-0"}
81	8	tavern	turn	\N	{"context_id":"tavern","detail":{"decayed":4,"reinforced":1},"index":8,"kind":"turn","seq":81,"turn":16,"unit_id":null}
82	0	tavern	reinforced	u34-0	{"context_id":"tavern","detail":{"after":900,"before":900,"count":17},"index":0,"kind":"reinforced","seq":82,"turn":17,"unit_id":"u34-0"}
82	1	tavern	decayed	u28-0	{"context_id":"tavern","detail":{"after":304,"before":335},"index":1,"kind":"decayed","seq":82,"turn":17,"unit_id":"u28-0"}
82	2	tavern	turn	\N	{"context_id":"tavern","detail":{"decayed":1,"reinforced":1},"index":2,"kind":"turn","seq":82,"turn":17,"unit_id":null}
83	0	tavern	reinforced	u34-0	{"context_id":"tavern","detail":{"after":900,"before":900,"count":18},"index":0,"kind":"reinforced","seq":83,"turn":18,"unit_id":"u34-0"}
83	1	tavern	decayed	u28-0	{"context_id":"tavern","detail":{"after":276,"before":304},"index":1,"kind":"decayed","seq":83,"turn":18,"unit_id":"u28-0"}
83	2	tavern	turn	\N	{"context_id":"tavern","detail":{"decayed":1,"reinforced":1},"index":2,"kind":"turn","seq":83,"turn":18,"unit_id":null}
84	0	tavern	reinforced	u34-0	{"context_id":"tavern","detail":{"after":900,"before":900,"count":19},"index":0,"kind":"reinforced","seq":84,"turn":19,"unit_id":"u34-0"}
84	1	tavern	decayed	u28-0	{"context_id":"tavern","detail":{"after":250,"before":276},"index":1,"kind":"decayed","seq":84,"turn":19,"unit_id":"u28-0"}
84	2	tavern	turn	\N	{"context_id":"tavern","detail":{"decayed":1,"reinforced":1},"index":2,"kind":"turn","seq":84,"turn":19,"unit_id":null}
85	0	tavern	reinforced	u28-0	{"context_id":"tavern","detail":{"after":300,"before":250,"count":4},"index":0,"kind":"reinforced","seq":85,"turn":20,"unit_id":"u28-0"}
85	1	tavern	reinforced	u34-0	{"context_id":"tavern","detail":{"after":900,"before":900,"count":20},"index":1,"kind":"reinforced","seq":85,"turn":20,"unit_id":"u34-0"}
85	2	tavern	turn	\N	{"context_id":"tavern","detail":{"decayed":0,"reinforced":2},"index":2,"kind":"turn","seq":85,"turn":20,"unit_id":null}
88	0	tavern	reinforced	u34-0	{"context_id":"tavern","detail":{"after":900,"before":900,"count":21},"index":0,"kind":"reinforced","seq":88,"turn":21,"unit_id":"u34-0"}
88	1	tavern	decayed	u28-0	{"context_id":"tavern","detail":{"after":272,"before":300},"index":1,"kind":"decayed","seq":88,"turn":21,"unit_id":"u28-0"}
88	2	tavern	turn	\N	{"context_id":"tavern","detail":{"decayed":1,"reinforced":1},"index":2,"kind":"turn","seq":88,"turn":21,"unit_id":null}
89	0	tavern	reinforced	u34-0	{"context_id":"tavern","detail":{"after":900,"before":900,"count":22},"index":0,"kind":"reinforced","seq":89,"turn":22,"unit_id":"u34-0"}
89	1	tavern	decayed	u28-0	{"context_id":"tavern","detail":{"after":247,"before":272},"index":1,"kind":"decayed","seq":89,"turn":22,"unit_id":"u28-0"}
89	2	tavern	turn	\N	{"context_id":"tavern","detail":{"decayed":1,"reinforced":1},"index":2,"kind":"turn","seq":89,"turn":22,"unit_id":null}
90	0	tavern	reinforced	u34-0	{"context_id":"tavern","detail":{"after":900,"before":900,"count":23},"index":0,"kind":"reinforced","seq":90,"turn":23,"unit_id":"u34-0"}
90	1	tavern	decayed	u28-0	{"context_id":"tavern","detail":{"after":224,"before":247},"index":1,"kind":"decayed","seq":90,"turn":23,"unit_id":"u28-0"}
90	2	tavern	turn	\N	{"context_id":"tavern","detail":{"decayed":1,"reinforced":1},"index":2,"kind":"turn","seq":90,"turn":23,"unit_id":null}
91	0	tavern	reinforced	u34-0	{"context_id":"tavern","detail":{"after":900,"before":900,"count":24},"index":0,"kind":"reinforced","seq":91,"turn":24,"unit_id":"u34-0"}
91	1	tavern	decayed	u28-0	{"context_id":"tavern","detail":{"after":203,"before":224},"index":1,"kind":"decayed","seq":91,"turn":24,"unit_id":"u28-0"}
91	2	tavern	turn	\N	{"context_id":"tavern","detail":{"decayed":1,"reinforced":1},"index":2,"kind":"turn","seq":91,"turn":24,"unit_id":null}
92	0	tavern	reinforced	u34-0	{"context_id":"tavern","detail":{"after":900,"before":900,"count":25},"index":0,"kind":"reinforced","seq":92,"turn":25,"unit_id":"u34-0"}
92	1	tavern	decayed	u28-0	{"context_id":"tavern","detail":{"after":184,"before":203},"index":1,"kind":"decayed","seq":92,"turn":25,"unit_id":"u28-0"}
92	2	tavern	authority_changed	u28-0	{"context_id":"tavern","detail":{"after":"PROVISIONAL","before":"UNRELIABLE","direction":"down","rank":184,"reason":"rank"},"index":2,"kind":"authority_changed","seq":92,"turn":25,"unit_id":"u28-0"}
92	3	tavern	turn	\N	{"context_id":"tavern","detail":{"decayed":1,"reinforced":1},"index":3,"kind":"turn","seq":92,"turn":25,"unit_id":null}
93	0	tavern	reinforced	u34-0	{"context_id":"tavern","detail":{"after":900,"before":900,"count":26},"index":0,"kind":"reinforced","seq":93,"turn":26,"unit_id":"u34-0"}
93	1	tavern	decayed	u28-0	{"context_id":"tavern","detail":{"after":167,"before":184},"index":1,"kind":"decayed","seq":93,"turn":26,"unit_id":"u28-0"}
93	2	tavern	turn	\N	{"context_id":"tavern","detail":{"decayed":1,"reinforced":1},"index":2,"kind":"turn","seq":93,"turn":26,"unit_id":null}
94	0	tavern	reinforced	u34-0	{"context_id":"tavern","detail":{"after":900,"before":900,"count":27},"index":0,"kind":"reinforced","seq":94,"turn":27,"unit_id":"u34-0"}
94	1	tavern	decayed	u28-0	{"context_id":"tavern","detail":{"after":151,"before":167},"index":1,"kind":"decayed","seq":94,"turn":27,"unit_id":"u28-0"}
94	2	tavern	turn	\N	{"context_id":"tavern","detail":{"decayed":1,"reinforced":1},"index":2,"kind":"turn","seq":94,"turn":27,"unit_id":null}
95	0	tavern	reinforced	u34-0	{"context_id":"tavern","detail":{"after":900,"before":900,"count":28},"index":0,"kind":"reinforced","seq":95,"turn":28,"unit_id":"u34-0"}
95	1	tavern	decayed	u28-0	{"context_id":"tavern","detail":{"after":137,"before":151},"index":1,"kind":"decayed","seq":95,"turn":28,"unit_id":"u28-0"}
95	2	tavern	archived	u28-0	{"context_id":"tavern","detail":{"rank":137,"reason":"decay"},"index":2,"kind":"archived","seq":95,"turn":28,"unit_id":"u28-0"}
95	3	tavern	turn	\N	{"context_id":"tavern","detail":{"decayed":1,"reinforced":1},"index":3,"kind":"turn","seq":95,"turn":28,"unit_id":null}
96	0	tavern	reinforced	u34-0	{"context_id":"tavern","detail":{"after":900,"before":900,"count":29},"index":0,"kind":"reinforced","seq":96,"turn":29,"unit_id":"u34-0"}
96	1	tavern	turn	\N	{"context_id":"tavern","detail":{"decayed":0,"reinforced":1},"index":1,"kind":"turn","seq":96,"turn":29,"unit_id":null}
97	0	tavern	reinforced	u34-0	{"context_id":"tavern","detail":{"after":900,"before":900,"count":30},"index":0,"kind":"reinforced","seq":97,"turn":30,"unit_id":"u34-0"}
97	1	tavern	turn	\N	{"context_id":"tavern","detail":{"decayed":0,"reinforced":1},"index":1,"kind":"turn","seq":97,"turn":30,"unit_id":null}
98	0	tavern	reinforced	u34-0	{"context_id":"tavern","detail":{"after":900,"before":900,"count":31},"index":0,"kind":"reinforced","seq":98,"turn":31,"unit_id":"u34-0"}
98	1	tavern	turn	\N	{"context_id":"tavern","detail":{"decayed":0,"reinforced":1},"index":1,"kind":"turn","seq":98,"turn":31,"unit_id":null}
99	0	tavern	reinforced	u34-0	{"context_id":"tavern","detail":{"after":900,"before":900,"count":32},"index":0,"kind":"reinforced","seq":99,"turn":32,"unit_id":"u34-0"}
99	1	tavern	turn	\N	{"context_id":"tavern","detail":{"decayed":0,"reinforced":1},"index":1,"kind":"turn","seq":99,"turn":32,"unit_id":null}
100	0	tavern	reinforced	u34-0	{"context_id":"tavern","detail":{"after":900,"before":900,"count":33},"index":0,"kind":"reinforced","seq":100,"turn":33,"unit_id":"u34-0"}
100	1	tavern	turn	\N	{"context_id":"tavern","detail":{"decayed":0,"reinforced":1},"index":1,"kind":"turn","seq":100,"turn":33,"unit_id":null}
101	0	tavern	reinforced	u34-0	{"context_id":"tavern","detail":{"after":900,"before":900,"count":34},"index":0,"kind":"reinforced","seq":101,"turn":34,"unit_id":"u34-0"}
101	1	tavern	turn	\N	{"context_id":"tavern","detail":{"decayed":0,"reinforced":1},"index":1,"kind":"turn","seq":101,"turn":34,"unit_id":null}
102	0	tavern	reinforced	u34-0	{"context_id":"tavern","detail":{"after":900,"before":900,"count":35},"index":0,"kind":"reinforced","seq":102,"turn":35,"unit_id":"u34-0"}
102	1	tavern	turn	\N	{"context_id":"tavern","detail":{"decayed":0,"reinforced":1},"index":1,"kind":"turn","seq":102,"turn":35,"unit_id":null}
103	0	tavern	reinforced	u34-0	{"context_id":"tavern","detail":{"after":900,"before":900,"count":36},"index":0,"kind":"reinforced","seq":103,"turn":36,"unit_id":"u34-0"}
103	1	tavern	turn	\N	{"context_id":"tavern","detail":{"decayed":0,"reinforced":1},"index":1,"kind":"turn","seq":103,"turn":36,"unit_id":null}
104	0	tavern	reinforced	u34-0	{"context_id":"tavern","detail":{"after":900,"before":900,"count":37},"index":0,"kind":"reinforced","seq":104,"turn":37,"unit_id":"u34-0"}
104	1	tavern	turn	\N	{"context_id":"tavern","detail":{"decayed":0,"reinforced":1},"index":1,"kind":"turn","seq":104,"turn":37,"unit_id":null}
105	0	tavern	reinforced	u34-0	{"context_id":"tavern","detail":{"after":900,"before":900,"count":38},"index":0,"kind":"reinforced","seq":105,"turn":38,"unit_id":"u34-0"}
105	1	tavern	turn	\N	{"context_id":"tavern","detail":{"decayed":0,"reinforced":1},"index":1,"kind":"turn","seq":105,"turn":38,"unit_id":null}
106	0	tavern	reinforced	u34-0	{"context_id":"tavern","detail":{"after":900,"before":900,"count":39},"index":0,"kind":"reinforced","seq":106,"turn":39,"unit_id":"u34-0"}
106	1	tavern	turn	\N	{"context_id":"tavern","detail":{"decayed":0,"reinforced":1},"index":1,"kind":"turn","seq":106,"turn":39,"unit_id":null}
107	0	tavern	reinforced	u34-0	{"context_id":"tavern","detail":{"after":900,"before":900,"count":40},"index":0,"kind":"reinforced","seq":107,"turn":40,"unit_id":"u34-0"}
107	1	tavern	turn	\N	{"context_id":"tavern","detail":{"decayed":0,"reinforced":1},"index":1,"kind":"turn","seq":107,"turn":40,"unit_id":null}
111	0	vault	created	u111-0	{"context_id":"vault","detail":{"authority":"RELIABLE","pinned":false,"rank":800,"source":"operator"},"index":0,"kind":"created","seq":111,"turn":0,"unit_id":"u111-0"}
112	0	vault	created	u112-0	{"context_id":"vault","detail":{"authority":"RELIABLE","pinned":false,"rank":600,"source":"operator"},"index":0,"kind":"created","seq":112,"turn":0,"unit_id":"u112-0"}
113	0	vault	created	u113-0	{"context_id":"vault","detail":{"authority":"UNRELIABLE","pinned":false,"rank":150,"source":"operator"},"index":0,"kind":"created","seq":113,"turn":0,"unit_id":"u113-0"}
114	0	vault	created	u114-0	{"context_id":"vault","detail":{"authority":"PROVISIONAL","pinned":false,"rank":300,"source":"operator"},"index":0,"kind":"created","seq":114,"turn":0,"unit_id":"u114-0"}
115	0	vault	evicted	u114-0	{"context_id":"vault","detail":{"rank":300,"reason":"budget"},"index":0,"kind":"evicted","seq":115,"turn":0,"unit_id":"u114-0"}
115	1	vault	created	u115-0	{"context_id":"vault","detail":{"authority":"UNRELIABLE","pinned":false,"rank":400,"source":"operator"},"index":1,"kind":"created","seq":115,"turn":0,"unit_id":"u115-0"}
116	0	vault	queued	\N	{"context_id":"vault","detail":{"review_id":"r116","score":0.502786,"source":"captain"},"index":0,"kind":"queued","seq":116,"turn":0,"unit_id":null}
117	0	vault	rejected	\N	{"context_id":"vault","detail":{"reason":"trust_archive","score":0.412333,"source":"rumour"},"index":0,"kind":"rejected","seq":117,"turn":0,"unit_id":null}
120	0	vault	decayed	u111-0	{"context_id":"vault","detail":{"after":740,"before":800},"index":0,"kind":"decayed","seq":120,"turn":1,"unit_id":"u111-0"}
120	1	vault	decayed	u112-0	{"context_id":"vault","detail":{"after":555,"before":600},"index":1,"kind":"decayed","seq":120,"turn":1,"unit_id":"u112-0"}
120	2	vault	decayed	u113-0	{"context_id":"vault","detail":{"after":123,"before":150},"index":2,"kind":"decayed","seq":120,"turn":1,"unit_id":"u113-0"}
120	3	vault	invariant_warning	u113-0	{"context_id":"vault","detail":{"message":"invariant guard-floor: unit u113-0 would drop below RELIABLE","rule":"guard-floor"},"index":3,"kind":"invariant_warning","seq":120,"turn":1,"unit_id":"u113-0"}
120	4	vault	authority_changed	u113-0	{"context_id":"vault","detail":{"after":"PROVISIONAL","before":"UNRELIABLE","direction":"down","rank":123,"reason":"rank"},"index":4,"kind":"authority_changed","seq":120,"turn":1,"unit_id":"u113-0"}
120	5	vault	archived	u113-0	{"context_id":"vault","detail":{"rank":123,"reason":"decay"},"index":5,"kind":"archived","seq":120,"turn":1,"unit_id":"u113-0"}
120	6	vault	decayed	u115-0	{"context_id":"vault","detail":{"after":356,"before":400},"index":6,"kind":"decayed","seq":120,"turn":1,"unit_id":"u115-0"}
120	7	vault	turn	\N	{"context_id":"vault","detail":{"decayed":4,"reinforced":0},"index":7,"kind":"turn","seq":120,"turn":1,"unit_id":null}
121	0	vault	decayed	u111-0	{"context_id":"vault","detail":{"after":685,"before":740},"index":0,"kind":"decayed","seq":121,"turn":2,"unit_id":"u111-0"}
121	1	vault	decayed	u112-0	{"context_id":"vault","detail":{"after":494,"before":555},"index":1,"kind":"decayed","seq":121,"turn":2,"unit_id":"u112-0"}
121	2	vault	decayed	u115-0	{"context_id":"vault","detail":{"after":317,"before":356},"index":2,"kind":"decayed","seq":121,"turn":2,"unit_id":"u115-0"}
121	3	vault	turn	\N	{"context_id":"vault","detail":{"decayed":3,"reinforced":0},"index":3,"kind":"turn","seq":121,"turn":2,"unit_id":null}
122	0	vault	decayed	u111-0	{"context_id":"vault","detail":{"after":634,"before":685},"index":0,"kind":"decayed","seq":122,"turn":3,"unit_id":"u111-0"}
122	1	vault	decayed	u112-0	{"context_id":"vault","detail":{"after":440,"before":494},"index":1,"kind":"decayed","seq":122,"turn":3,"unit_id":"u112-0"}
122	2	vault	decayed	u115-0	{"context_id":"vault","detail":{"after":261,"before":317},"index":2,"kind":"decayed","seq":122,"turn":3,"unit_id":"u115-0"}
122	3	vault	turn	\N	{"context_id":"vault","detail":{"decayed":3,"reinforced":0},"index":3,"kind":"turn","seq":122,"turn":3,"unit_id":null}
123	0	vault	decayed	u111-0	{"context_id":"vault","detail":{"after":587,"before":634},"index":0,"kind":"decayed","seq":123,"turn":4,"unit_id":"u111-0"}
123	1	vault	decayed	u112-0	{"context_id":"vault","detail":{"after":391,"before":440},"index":1,"kind":"decayed","seq":123,"turn":4,"unit_id":"u112-0"}
123	2	vault	invariant_blocked	u112-0	{"context_id":"vault","detail":{"message":"invariant one-reliable-vault: unit u112-0 would leave 0 matching units at RELIABLE or above","rule":"one-reliable-vault"},"index":2,"kind":"invariant_blocked","seq":123,"turn":4,"unit_id":"u112-0"}
123	3	vault	decayed	u115-0	{"context_id":"vault","detail":{"after":215,"before":261},"index":3,"kind":"decayed","seq":123,"turn":4,"unit_id":"u115-0"}
123	4	vault	turn	\N	{"context_id":"vault","detail":{"decayed":3,"reinforced":0},"index":4,"kind":"turn","seq":123,"turn":4,"unit_id":null}
124	0	vault	decayed	u111-0	{"context_id":"vault","detail":{"after":522,"before":587},"index":0,"kind":"decayed","seq":124,"turn":5,"unit_id":"u111-0"}
124	1	vault	decayed	u112-0	{"context_id":"vault","detail":{"after":348,"before":391},"index":1,"kind":"decayed","seq":124,"turn":5,"unit_id":"u112-0"}
124	2	vault	invariant_blocked	u112-0	{"context_id":"vault","detail":{"message":"invariant one-reliable-vault: unit u112-0 would leave 0 matching units at RELIABLE or above","rule":"one-reliable-vault"},"index":2,"kind":"invariant_blocked","seq":124,"turn":5,"unit_id":"u112-0"}
124	3	vault	decayed	u115-0	{"context_id":"vault","detail":{"after":177,"before":215},"index":3,"kind":"decayed","seq":124,"turn":5,"unit_id":"u115-0"}
124	4	vault	authority_changed	u115-0	{"context_id":"vault","detail":{"after":"PROVISIONAL","before":"UNRELIABLE","direction":"down","rank":177,"reason":"rank"},"index":4,"kind":"authority_changed","seq":124,"turn":5,"unit_id":"u115-0"}
124	5	vault	archived	u115-0	{"context_id":"vault","detail":{"rank":177,"reason":"decay"},"index":5,"kind":"archived","seq":124,"turn":5,"unit_id":"u115-0"}
124	6	vault	turn	\N	{"context_id":"vault","detail":{"decayed":3,"reinforced":0},"index":6,"kind":"turn","seq":124,"turn":5,"unit_id":null}
125	0	vault	decayed	u111-0	{"context_id":"vault","detail":{"after":465,"before":522},"index":0,"kind":"decayed","seq":125,"turn":6,"unit_id":"u111-0"}
125	1	vault	decayed	u112-0	{"context_id":"vault","detail":{"after":287,"before":348},"index":1,"kind":"decayed","seq":125,"turn":6,"unit_id":"u112-0"}
125	2	vault	invariant_blocked	u112-0	{"context_id":"vault","detail":{"message":"invariant one-reliable-vault: unit u112-0 would leave 0 matching units at RELIABLE or above","rule":"one-reliable-vault"},"index":2,"kind":"invariant_blocked","seq":125,"turn":6,"unit_id":"u112-0"}
125	3	vault	turn	\N	{"context_id":"vault","detail":{"decayed":2,"reinforced":0},"index":3,"kind":"turn","seq":125,"turn":6,"unit_id":null}
126	0	vault	decayed	u111-0	{"context_id":"vault","detail":{"after":414,"before":465},"index":0,"kind":"decayed","seq":126,"turn":7,"unit_id":"u111-0"}
126	1	vault	decayed	u112-0	{"context_id":"vault","detail":{"after":236,"before":287},"index":1,"kind":"decayed","seq":126,"turn":7,"unit_id":"u112-0"}
126	2	vault	invariant_blocked	u112-0	{"context_id":"vault","detail":{"message":"invariant one-reliable-vault: unit u112-0 would leave 0 matching units at RELIABLE or above","rule":"one-reliable-vault"},"index":2,"kind":"invariant_blocked","seq":126,"turn":7,"unit_id":"u112-0"}
126	3	vault	turn	\N	{"context_id":"vault","detail":{"decayed":2,"reinforced":0},"index":3,"kind":"turn","seq":126,"turn":7,"unit_id":null}
127	0	vault	decayed	u111-0	{"context_id":"vault","detail":{"after":368,"before":414},"index":0,"kind":"decayed","seq":127,"turn":8,"unit_id":"u111-0"}
127	1	vault	authority_changed	u111-0	{"context_id":"vault","detail":{"after":"UNRELIABLE","before":"RELIABLE","direction":"down","rank":368,"reason":"rank"},"index":1,"kind":"authority_changed","seq":127,"turn":8,"unit_id":"u111-0"}
127	2	vault	decayed	u112-0	{"context_id":"vault","detail":{"after":194,"before":236},"index":2,"kind":"decayed","seq":127,"turn":8,"unit_id":"u112-0"}
127	3	vault	invariant_blocked	u112-0	{"context_id":"vault","detail":{"message":"invariant one-reliable-vault: unit u112-0 would leave 0 matching units at RELIABLE or above","rule":"one-reliable-vault"},"index":3,"kind":"invariant_blocked","seq":127,"turn":8,"unit_id":"u112-0"}
127	4	vault	invariant_blocked	u112-0	{"context_id":"vault","detail":{"message":"invariant one-reliable-vault: unit u112-0 would leave 0 matching units at RELIABLE or above","rule":"one-reliable-vault"},"index":4,"kind":"invariant_blocked","seq":127,"turn":8,"unit_id":"u112-0"}
127	5	vault	turn	\N	{"context_id":"vault","detail":{"decayed":2,"reinforced":0},"index":5,"kind":"turn","seq":127,"turn":8,"unit_id":null}
130	0	tiny	created	u130-0	{"context_id":"tiny","detail":{"authority":"RELIABLE","pinned":true,"rank":500,"source":"operator"},"index":0,"kind":"created","seq":130,"turn":0,"unit_id":"u130-0"}
150	0	tavern	compaction_checked	\N	{"context_id":"tavern","detail":{"lost":2,"protected":2,"strict":false},"index":0,"kind":"compaction_checked","seq":150,"turn":40,"unit_id":null}
151	0	tavern	compaction_checked	\N	{"context_id":"tavern","detail":{"lost":0,"protected":2,"strict":true},"index":0,"kind":"compaction_checked","seq":151,"turn":40,"unit_id":null}
\.


--
-- Data for Name: awmu_reviews; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.awmu_reviews (review_id, context_id, status, body) FROM stdin;
r116	vault	PENDING	{"authority_ceiling":"UNRELIABLE","confidence":0.95,"context_id":"vault","created_seq":116,"decided_by":null,"decided_seq":null,"review_id":"r116","source":"captain","status":"PENDING","text":"The captain counts the coins.","trust_score":0.502786,"trust_signals":{"corroboration":0.3,"extraction_confidence":0.95,"graph_consistency":0.14285714285714285,"importance":0.25,"novelty":0.8571428571428572,"source_authority":0.95},"unit_id":null,"verdicts":[]}
r24	tavern	APPROVED	{"authority_ceiling":"UNRELIABLE","confidence":0.9,"context_id":"tavern","created_seq":24,"decided_by":"operator:alice","decided_seq":34,"review_id":"r24","source":"dm","status":"APPROVED","text":"A dragon sleeps beneath the mountain.","trust_score":0.574,"trust_signals":{"corroboration":0.3,"extraction_confidence":0.9,"graph_consistency":0.2,"importance":0.3333333333333333,"novelty":0.8,"source_authority":0.9},"unit_id":"u34-0","verdicts":[]}
r25	tavern	REJECTED	{"authority_ceiling":"UNRELIABLE","confidence":0.9,"context_id":"tavern","created_seq":25,"decided_by":"operator:alice","decided_seq":35,"review_id":"r25","source":"dm","status":"REJECTED","text":"The priest hides a key.","trust_score":0.581556,"trust_signals":{"corroboration":0.3,"extraction_confidence":0.9,"graph_consistency":0.2222222222222222,"importance":0.4,"novelty":0.7777777777777778,"source_authority":0.9},"unit_id":null,"verdicts":[]}
\.


--
-- Data for Name: awmu_units; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.awmu_units (unit_id, context_id, status, created_seq, body) FROM stdin;
u10-0	tavern	ACTIVE	10	{"authority":"CANON","authority_ceiling":"RELIABLE","confidence":1.0,"context_id":"tavern","created_seq":10,"last_reinforced_turn":0,"pinned":false,"rank":700,"reinforcement_count":0,"source_ids":["operator"],"status":"ACTIVE","superseded_by":null,"supersedes":[],"text":"The old king is dead.","tier":"HOT","trust_score":null,"trust_signals":{},"unit_id":"u10-0","updated_seq":43}
u11-0	tavern	ACTIVE	11	{"authority":"CANON","authority_ceiling":"RELIABLE","confidence":1.0,"context_id":"tavern","created_seq":11,"last_reinforced_turn":0,"pinned":true,"rank":500,"reinforcement_count":0,"source_ids":["operator"],"status":"ACTIVE","superseded_by":null,"supersedes":[],"text":"Elara keeps the Silver Stag tavern.","tier":"WARM","trust_score":null,"trust_signals":{},"unit_id":"u11-0","updated_seq":50}
u111-0	vault	ACTIVE	111	{"authority":"UNRELIABLE","authority_ceiling":"RELIABLE","confidence":1.0,"context_id":"vault","created_seq":111,"last_reinforced_turn":0,"pinned":false,"rank":368,"reinforcement_count":0,"source_ids":["operator"],"status":"ACTIVE","superseded_by":null,"supersedes":[],"text":"The north gate is sealed.","tier":"WARM","trust_score":null,"trust_signals":{},"unit_id":"u111-0","updated_seq":127}
u112-0	vault	ACTIVE	112	{"authority":"RELIABLE","authority_ceiling":"RELIABLE","confidence":1.0,"context_id":"vault","created_seq":112,"last_reinforced_turn":0,"pinned":false,"rank":194,"reinforcement_count":0,"source_ids":["operator"],"status":"ACTIVE","superseded_by":null,"supersedes":[],"text":"The vault holds the crown.","tier":"COLD","trust_score":null,"trust_signals":{},"unit_id":"u112-0","updated_seq":127}
u113-0	vault	ARCHIVED	113	{"authority":"PROVISIONAL","authority_ceiling":"RELIABLE","confidence":1.0,"context_id":"vault","created_seq":113,"last_reinforced_turn":0,"pinned":false,"rank":123,"reinforcement_count":0,"source_ids":["operator"],"status":"ARCHIVED","superseded_by":null,"supersedes":[],"text":"A guard watches the stairs.","tier":"COLD","trust_score":null,"trust_signals":{},"unit_id":"u113-0","updated_seq":120}
u114-0	vault	EVICTED	114	{"authority":"PROVISIONAL","authority_ceiling":"RELIABLE","confidence":1.0,"context_id":"vault","created_seq":114,"last_reinforced_turn":0,"pinned":false,"rank":300,"reinforcement_count":0,"source_ids":["operator"],"status":"EVICTED","superseded_by":null,"supersedes":[],"text":"The lamp is lit.","tier":"COLD","trust_score":null,"trust_signals":{},"unit_id":"u114-0","updated_seq":115}
u115-0	vault	ARCHIVED	115	{"authority":"PROVISIONAL","authority_ceiling":"RELIABLE","confidence":1.0,"context_id":"vault","created_seq":115,"last_reinforced_turn":0,"pinned":false,"rank":177,"reinforcement_count":0,"source_ids":["operator"],"status":"ARCHIVED","superseded_by":null,"supersedes":[],"text":"The courtyard is empty.","tier":"COLD","trust_score":null,"trust_signals":{},"unit_id":"u115-0","updated_seq":124}
u12-0	tavern	ARCHIVED	12	{"authority":"PROVISIONAL","authority_ceiling":"RELIABLE","confidence":1.0,"context_id":"tavern","created_seq":12,"last_reinforced_turn":0,"pinned":false,"rank":137,"reinforcement_count":0,"source_ids":["operator"],"status":"ARCHIVED","superseded_by":null,"supersedes":[],"text":"The ferry crosses the river at dawn.","tier":"COLD","trust_score":null,"trust_signals":{},"unit_id":"u12-0","updated_seq":73}
u13-0	tavern	SUPERSEDED	13	{"authority":"UNRELIABLE","authority_ceiling":"RELIABLE","confidence":1.0,"context_id":"tavern","created_seq":13,"last_reinforced_turn":0,"pinned":false,"rank":450,"reinforcement_count":0,"source_ids":["operator"],"status":"SUPERSEDED","superseded_by":"u28-0","supersedes":[],"text":"The village well is poisoned.","tier":"WARM","trust_score":null,"trust_signals":{},"unit_id":"u13-0","updated_seq":28}
u130-0	tiny	ACTIVE	130	{"authority":"RELIABLE","authority_ceiling":"RELIABLE","confidence":1.0,"context_id":"tiny","created_seq":130,"last_reinforced_turn":0,"pinned":true,"rank":500,"reinforcement_count":0,"source_ids":["operator"],"status":"ACTIVE","superseded_by":null,"supersedes":[],"text":"Only this fact fits.","tier":"WARM","trust_score":null,"trust_signals":{},"unit_id":"u130-0","updated_seq":130}
u14-0	tavern	ARCHIVED	14	{"authority":"PROVISIONAL","authority_ceiling":"RELIABLE","confidence":1.0,"context_id":"tavern","created_seq":14,"last_reinforced_turn":0,"pinned":false,"rank":137,"reinforcement_count":0,"source_ids":["ledger"],"status":"ARCHIVED","superseded_by":null,"supersedes":[],"text":"The mill wheel turns again.","tier":"COLD","trust_score":null,"trust_signals":{},"unit_id":"u14-0","updated_seq":81}
u27-0	tavern	ARCHIVED	27	{"authority":"PROVISIONAL","authority_ceiling":"UNRELIABLE","confidence":1.0,"context_id":"tavern","created_seq":27,"last_reinforced_turn":0,"pinned":false,"rank":137,"reinforcement_count":0,"source_ids":["system"],"status":"ARCHIVED","superseded_by":null,"supersedes":["u9-0"],"text":"The storm over the sea has calmed.","tier":"COLD","trust_score":0.686,"trust_signals":{"corroboration":0.3,"extraction_confidence":1.0,"graph_consistency":0.5,"importance":0.6666666666666666,"novelty":0.5,"source_authority":1.0},"unit_id":"u27-0","updated_seq":81}
u28-0	tavern	ARCHIVED	28	{"authority":"PROVISIONAL","authority_ceiling":"UNRELIABLE","confidence":1.0,"context_id":"tavern","created_seq":28,"last_reinforced_turn":20,"pinned":false,"rank":137,"reinforcement_count":4,"source_ids":["system"],"status":"ARCHIVED","superseded_by":null,"supersedes":["u13-0"],"text":"The village well is cleansed.","tier":"COLD","trust_score":0.720667,"trust_signals":{"corroboration":0.3,"extraction_confidence":1.0,"graph_consistency":0.6666666666666666,"importance":0.8,"novelty":0.33333333333333337,"source_authority":1.0},"unit_id":"u28-0","updated_seq":95}
u29-0	tavern	ARCHIVED	29	{"authority":"PROVISIONAL","authority_ceiling":"UNRELIABLE","confidence":1.0,"context_id":"tavern","created_seq":29,"last_reinforced_turn":0,"pinned":false,"rank":137,"reinforcement_count":0,"source_ids":["system"],"status":"ARCHIVED","superseded_by":null,"supersedes":[],"text":"The mill wheel turns slower in winter.","tier":"COLD","trust_score":0.680286,"trust_signals":{"corroboration":0.3,"extraction_confidence":1.0,"graph_consistency":0.5,"importance":0.5714285714285714,"novelty":0.5,"source_authority":1.0},"unit_id":"u29-0","updated_seq":81}
u34-0	tavern	ACTIVE	34	{"authority":"UNRELIABLE","authority_ceiling":"UNRELIABLE","confidence":0.9,"context_id":"tavern","created_seq":34,"last_reinforced_turn":40,"pinned":false,"rank":900,"reinforcement_count":40,"source_ids":["dm"],"status":"ACTIVE","superseded_by":null,"supersedes":[],"text":"A dragon sleeps beneath the mountain.","tier":"HOT","trust_score":0.574,"trust_signals":{"corroboration":0.3,"extraction_confidence":0.9,"graph_consistency":0.2,"importance":0.3333333333333333,"novelty":0.8,"source_authority":0.9},"unit_id":"u34-0","updated_seq":107}
u59-0	tavern	ARCHIVED	59	{"authority":"PROVISIONAL","authority_ceiling":"UNRELIABLE","confidence":1.0,"context_id":"tavern","created_seq":59,"last_reinforced_turn":0,"pinned":false,"rank":500,"reinforcement_count":0,"source_ids":["system"],"status":"ARCHIVED","superseded_by":null,"supersedes":[],"text":"The wolf pack crosses the river at dawn.","tier":"WARM","trust_score":0.708857,"trust_signals":{"corroboration":0.3,"extraction_confidence":1.0,"graph_consistency":0.625,"importance":0.7142857142857143,"novelty":0.375,"source_authority":1.0},"unit_id":"u59-0","updated_seq":60}
u9-0	tavern	SUPERSEDED	9	{"authority":"PROVISIONAL","authority_ceiling":"UNRELIABLE","confidence":1.0,"context_id":"tavern","created_seq":9,"last_reinforced_turn":0,"pinned":false,"rank":500,"reinforcement_count":0,"source_ids":["system"],"status":"SUPERSEDED","superseded_by":"u27-0","supersedes":[],"text":"A storm gathers over the sea.","tier":"WARM","trust_score":0.676,"trust_signals":{"corroboration":0.3,"extraction_confidence":1.0,"graph_consistency":0.5,"importance":0.0,"novelty":1.0,"source_authority":1.0},"unit_id":"u9-0","updated_seq":27}
\.


--
-- Data for Name: grants; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.grants (principal, capability, scope, granted_seq) FROM stdin;
agent:curator	canonize	tavern	48
\.


--
-- Data for Name: graph_blobs; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.graph_blobs (hash, data) FROM stdin;
\.


--
-- Data for Name: graph_channel_values; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.graph_channel_values (thread_id, checkpoint_ns, channel, version, value_type, value_hash, written_seq) FROM stdin;
\.


--
-- Data for Name: graph_checkpoints; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.graph_checkpoints (thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, checkpoint_type, checkpoint_hash, metadata, channel_versions, written_seq) FROM stdin;
\.


--
-- Data for Name: graph_store_items; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.graph_store_items (namespace, key, prefix, value_hash, created_at, updated_at, expires_at, ttl, order_seq, written_seq) FROM stdin;
\.


--
-- Data for Name: graph_store_namespaces; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.graph_store_namespaces (namespace, created_seq) FROM stdin;
\.


--
-- Data for Name: graph_store_owners; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.graph_store_owners (prefix, owner, created_seq) FROM stdin;
\.


--
-- Data for Name: graph_thread_owners; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.graph_thread_owners (thread_id, owner, created_seq) FROM stdin;
\.


--
-- Data for Name: graph_writes; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.graph_writes (thread_id, checkpoint_ns, checkpoint_id, task_id, idx, channel, task_path, value_type, value_hash, written_seq) FROM stdin;
\.


--
-- Data for Name: journal; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.journal (seq, recorded_at, syscall, principal, args, status, result, effects_hash, prev_hash, entry_hash) FROM stdin;
1	2026-01-01T00:00:01.000000Z	memory.awmu.create	operator:alice	\\x7b22636f6e746578745f6964223a2274617665726e227d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22636f6e666967223a7b2261646d697373696f6e223a226761746564222c22617263686976655f666c6f6f72223a3135302c226175746f5f61637469766174655f7468726573686f6c64223a302e36352c22627564676574223a32302c2263616e6f6e697a657273223a5b226f70657261746f723a2a222c2261646d696e3a2a225d2c2263686172735f7065725f746f6b656e223a342c22636f6c645f6d756c7469706c696572223a302e362c22636f6e666c6963745f706f6c696379223a227265736f6c7665222c2264656661756c745f736f757263655f617574686f72697479223a302e352c226576696374696f6e223a2272616e6b222c2268616c665f6c6966655f7475726e73223a31322e302c22686f745f6d756c7469706c696572223a312e352c22686f745f7468726573686f6c64223a3630302c22696e697469616c5f72616e6b223a3530302c22696e76617269616e7473223a5b5d2c226c65786963616c5f636f6e666c6963745f636f6e666964656e6365223a302e37352c226c65786963616c5f636f6e666c6963745f6f7665726c6170223a302e352c226c6966656379636c655f656e61626c6564223a747275652c226d61785f72616e6b223a3930302c226d696e5f72616e6b223a3130302c226f70657261746f7273223a5b226f70657261746f723a2a222c2261646d696e3a2a225d2c2270726f6d6f74696f6e5f656e61626c6564223a747275652c2272616e6b5f656e61626c6564223a747275652c227265696e666f7263656d656e745f626f6f7374223a35302c2272656c6961626c655f64656d6f74655f62656c6f77223a3430302c2272656c6961626c655f726576697361626c65223a66616c73652c227265766973696f6e5f636f6e666964656e63655f7468726573686f6c64223a302e37352c22736f757263655f617574686f726974696573223a7b22646d223a302e392c22706c61796572223a302e332c2273797374656d223a312e307d2c2274727573745f656e61626c6564223a747275652c2274727573745f70726f66696c65223a2242414c414e434544222c22756e72656c6961626c655f64656d6f74655f62656c6f77223a3230302c22757067726164655f746f5f72656c6961626c655f6174223a372c22757067726164655f746f5f756e72656c6961626c655f6174223a332c227761726d5f6d756c7469706c696572223a312e302c227761726d5f7468726573686f6c64223a3335307d2c22636f6e746578745f6964223a2274617665726e227d7d	9cd9c34e93ef052afe96dd7bd48c5bdbe7cd9d7005b5a5702bd20dad12d655ff	f43842a04187956a2d98bc6876df716072514ba827dc7fc3b5c015d13688ea38	554cbfd2907bc5f7bab7440a3652eb5a03a88849227c04dcf8a2695d4cb0f236
2	2026-01-01T00:00:02.000000Z	memory.awmu.create	operator:alice	\\x7b22636f6e666967223a7b22617263686976655f666c6f6f72223a3230302c22627564676574223a342c2263616e6f6e697a657273223a5b226f70657261746f723a2a222c226167656e743a63757261746f72225d2c2263686172735f7065725f746f6b656e223a332c2264656661756c745f736f757263655f617574686f72697479223a302e342c2268616c665f6c6966655f7475726e73223a362e302c22696e76617269616e7473223a5b7b226964223a22676174652d7374617973222c2274797065223a22617263686976652d70726f6869626974696f6e222c22756e69745f746578745f7061747465726e223a2267617465227d2c7b226964223a226f6e652d72656c6961626c652d7661756c74222c2274797065223a226d696e2d617574686f726974792d636f756e74222c22756e69745f746578745f7061747465726e223a227661756c74227d2c7b226964223a2267756172642d666c6f6f72222c22737472656e677468223a2253484f554c44222c2274797065223a22617574686f726974792d666c6f6f72222c22756e69745f746578745f7061747465726e223a226775617264227d2c7b226964223a2267756172642d7374617973222c2274797065223a226576696374696f6e2d696d6d756e697479222c22756e69745f746578745f7061747465726e223a226775617264227d5d2c2272656c6961626c655f726576697361626c65223a747275652c22736f757263655f617574686f726974696573223a7b226361707461696e223a302e39352c2272756d6f7572223a302e317d2c2274727573745f70726f66696c65223a22534543555245227d2c22636f6e746578745f6964223a227661756c74227d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22636f6e666967223a7b2261646d697373696f6e223a226761746564222c22617263686976655f666c6f6f72223a3230302c226175746f5f61637469766174655f7468726573686f6c64223a302e36352c22627564676574223a342c2263616e6f6e697a657273223a5b226f70657261746f723a2a222c226167656e743a63757261746f72225d2c2263686172735f7065725f746f6b656e223a332c22636f6c645f6d756c7469706c696572223a302e362c22636f6e666c6963745f706f6c696379223a227265736f6c7665222c2264656661756c745f736f757263655f617574686f72697479223a302e342c226576696374696f6e223a2272616e6b222c2268616c665f6c6966655f7475726e73223a362e302c22686f745f6d756c7469706c696572223a312e352c22686f745f7468726573686f6c64223a3630302c22696e697469616c5f72616e6b223a3530302c22696e76617269616e7473223a5b7b226964223a22676174652d7374617973222c226d696e696d756d5f617574686f72697479223a2252454c4941424c45222c226d696e696d756d5f636f756e74223a312c22737472656e677468223a224d555354222c2274797065223a22617263686976652d70726f6869626974696f6e222c22756e69745f746578745f7061747465726e223a2267617465227d2c7b226964223a226f6e652d72656c6961626c652d7661756c74222c226d696e696d756d5f617574686f72697479223a2252454c4941424c45222c226d696e696d756d5f636f756e74223a312c22737472656e677468223a224d555354222c2274797065223a226d696e2d617574686f726974792d636f756e74222c22756e69745f746578745f7061747465726e223a227661756c74227d2c7b226964223a2267756172642d666c6f6f72222c226d696e696d756d5f617574686f72697479223a2252454c4941424c45222c226d696e696d756d5f636f756e74223a312c22737472656e677468223a2253484f554c44222c2274797065223a22617574686f726974792d666c6f6f72222c22756e69745f746578745f7061747465726e223a226775617264227d2c7b226964223a2267756172642d7374617973222c226d696e696d756d5f617574686f72697479223a2252454c4941424c45222c226d696e696d756d5f636f756e74223a312c22737472656e677468223a224d555354222c2274797065223a226576696374696f6e2d696d6d756e697479222c22756e69745f746578745f7061747465726e223a226775617264227d5d2c226c65786963616c5f636f6e666c6963745f636f6e666964656e6365223a302e37352c226c65786963616c5f636f6e666c6963745f6f7665726c6170223a302e352c226c6966656379636c655f656e61626c6564223a747275652c226d61785f72616e6b223a3930302c226d696e5f72616e6b223a3130302c226f70657261746f7273223a5b226f70657261746f723a2a222c2261646d696e3a2a225d2c2270726f6d6f74696f6e5f656e61626c6564223a747275652c2272616e6b5f656e61626c6564223a747275652c227265696e666f7263656d656e745f626f6f7374223a35302c2272656c6961626c655f64656d6f74655f62656c6f77223a3430302c2272656c6961626c655f726576697361626c65223a747275652c227265766973696f6e5f636f6e666964656e63655f7468726573686f6c64223a302e37352c22736f757263655f617574686f726974696573223a7b226361707461696e223a302e39352c2272756d6f7572223a302e317d2c2274727573745f656e61626c6564223a747275652c2274727573745f70726f66696c65223a22534543555245222c22756e72656c6961626c655f64656d6f74655f62656c6f77223a3230302c22757067726164655f746f5f72656c6961626c655f6174223a372c22757067726164655f746f5f756e72656c6961626c655f6174223a332c227761726d5f6d756c7469706c696572223a312e302c227761726d5f7468726573686f6c64223a3335307d2c22636f6e746578745f6964223a227661756c74227d7d	05169c61720b21d61c7e610b187da3b2ad7e13c5d543ff2b82e812918ddc2747	554cbfd2907bc5f7bab7440a3652eb5a03a88849227c04dcf8a2695d4cb0f236	d23d86d2ccdc7b5409f2dc607a7700956b446239ab09a1ae2f78cc7db06e1eb2
3	2026-01-01T00:00:03.000000Z	memory.awmu.create	operator:alice	\\x7b22636f6e666967223a7b22627564676574223a317d2c22636f6e746578745f6964223a2274696e79227d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22636f6e666967223a7b2261646d697373696f6e223a226761746564222c22617263686976655f666c6f6f72223a3135302c226175746f5f61637469766174655f7468726573686f6c64223a302e36352c22627564676574223a312c2263616e6f6e697a657273223a5b226f70657261746f723a2a222c2261646d696e3a2a225d2c2263686172735f7065725f746f6b656e223a342c22636f6c645f6d756c7469706c696572223a302e362c22636f6e666c6963745f706f6c696379223a227265736f6c7665222c2264656661756c745f736f757263655f617574686f72697479223a302e352c226576696374696f6e223a2272616e6b222c2268616c665f6c6966655f7475726e73223a31322e302c22686f745f6d756c7469706c696572223a312e352c22686f745f7468726573686f6c64223a3630302c22696e697469616c5f72616e6b223a3530302c22696e76617269616e7473223a5b5d2c226c65786963616c5f636f6e666c6963745f636f6e666964656e6365223a302e37352c226c65786963616c5f636f6e666c6963745f6f7665726c6170223a302e352c226c6966656379636c655f656e61626c6564223a747275652c226d61785f72616e6b223a3930302c226d696e5f72616e6b223a3130302c226f70657261746f7273223a5b226f70657261746f723a2a222c2261646d696e3a2a225d2c2270726f6d6f74696f6e5f656e61626c6564223a747275652c2272616e6b5f656e61626c6564223a747275652c227265696e666f7263656d656e745f626f6f7374223a35302c2272656c6961626c655f64656d6f74655f62656c6f77223a3430302c2272656c6961626c655f726576697361626c65223a66616c73652c227265766973696f6e5f636f6e666964656e63655f7468726573686f6c64223a302e37352c22736f757263655f617574686f726974696573223a7b22646d223a302e392c22706c61796572223a302e332c2273797374656d223a312e307d2c2274727573745f656e61626c6564223a747275652c2274727573745f70726f66696c65223a2242414c414e434544222c22756e72656c6961626c655f64656d6f74655f62656c6f77223a3230302c22757067726164655f746f5f72656c6961626c655f6174223a372c22757067726164655f746f5f756e72656c6961626c655f6174223a332c227761726d5f6d756c7469706c696572223a312e302c227761726d5f7468726573686f6c64223a3335307d2c22636f6e746578745f6964223a2274696e79227d7d	fb6f4b779c747f28ad940d02028d4c764c70a000131b80b1955edf43671bc6fb	d23d86d2ccdc7b5409f2dc607a7700956b446239ab09a1ae2f78cc7db06e1eb2	e3873431f594f26721b45772cb1600ecae8d2683b545f15e999a60de2cf968a1
4	2026-01-01T00:00:04.000000Z	memory.awmu.create	operator:alice	\\x7b22636f6e746578745f6964223a2274617665726e227d	awmu_context_exists	\\x7b226572726f72223a7b22636f6465223a2261776d755f636f6e746578745f657869737473222c2264657461696c223a22636f6e74657874202774617665726e272065786973747320616c7265616479222c226d657373616765223a226120776f726b696e672d6d656d6f727920636f6e74657874206f6620746869732069642065786973747320616c7265616479227d2c226f6b223a66616c73657d	4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945	e3873431f594f26721b45772cb1600ecae8d2683b545f15e999a60de2cf968a1	60e5d60bcf0af13db4d19401e93227c7a8a97597d4cae893b841289a4193a3a0
5	2026-01-01T00:00:05.000000Z	memory.awmu.create	agent:dm	\\x7b22636f6e666967223a7b22696e697469616c5f72616e6b223a3430302c226d696e5f72616e6b223a3530307d2c22636f6e746578745f6964223a22626164227d	awmu_invalid_config	\\x7b226572726f72223a7b22636f6465223a2261776d755f696e76616c69645f636f6e666967222c2264657461696c223a22696e697469616c5f72616e6b206d757374206c69652077697468696e205b6d696e5f72616e6b2c206d61785f72616e6b5d222c226d657373616765223a2274686520776f726b696e672d6d656d6f727920636f6e66696775726174696f6e20697320696e636f6e73697374656e74227d2c226f6b223a66616c73657d	4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945	60e5d60bcf0af13db4d19401e93227c7a8a97597d4cae893b841289a4193a3a0	88ed4a44e3f1e4a665e6f560576960ee362f3e46c7b27470ccbebd6e360a95db
6	2026-01-01T00:00:06.000000Z	memory.awmu.create	agent:dm	\\x7b22636f6e666967223a7b22627564676574223a307d2c22636f6e746578745f6964223a22626164227d	invalid_args	\\x7b226572726f72223a7b22636f6465223a22696e76616c69645f61726773222c2264657461696c223a2245787065637465642060696e7460203e3d2031202d2061742060242e636f6e6669672e62756467657460222c226d657373616765223a2274686520617267756d656e747320646f206e6f74206d61746368207468652073797363616c6c277320726571756573742074797065227d2c226f6b223a66616c73657d	4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945	88ed4a44e3f1e4a665e6f560576960ee362f3e46c7b27470ccbebd6e360a95db	52972a78fb544b577df46539e886a236bf3a2344cd91c4e4db1b4a45ffa2350d
7	2026-01-01T00:00:07.000000Z	memory.awmu.create	agent:dm	\\x7b22636f6e666967223a7b22636f6c6f7572223a22626c7565227d2c22636f6e746578745f6964223a22626164227d	invalid_args	\\x7b226572726f72223a7b22636f6465223a22696e76616c69645f61726773222c2264657461696c223a224f626a65637420636f6e7461696e7320756e6b6e6f776e206669656c642060636f6c6f757260202d2061742060242e636f6e66696760222c226d657373616765223a2274686520617267756d656e747320646f206e6f74206d61746368207468652073797363616c6c277320726571756573742074797065227d2c226f6b223a66616c73657d	4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945	52972a78fb544b577df46539e886a236bf3a2344cd91c4e4db1b4a45ffa2350d	b04c9d90c5be6e4522a421209031886ce1fb872fa09472bdd94906b3c5cdfe27
8	2026-01-01T00:00:08.000000Z	memory.awmu.create	agent:dm	\\x7b22636f6e746578745f6964223a226261645c7530303031227d	invalid_args	\\x7b226572726f72223a7b22636f6465223a22696e76616c69645f61726773222c2264657461696c223a224578706563746564206073747260206d61746368696e6720726567657820275e5b5e5c5c5c5c7830302d5c5c5c5c7831665c5c5c5c7837662d5c5c5c5c7839665d2b5c5c5c5c5a27202d2061742060242e636f6e746578745f696460222c226d657373616765223a2274686520617267756d656e747320646f206e6f74206d61746368207468652073797363616c6c277320726571756573742074797065227d2c226f6b223a66616c73657d	4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945	b04c9d90c5be6e4522a421209031886ce1fb872fa09472bdd94906b3c5cdfe27	aa45e4c25c50401b97640dc03601d8dfc53648c22eb9247ef67acbd2e80c1adc
20	2026-01-01T00:00:20.000000Z	memory.awmu.seed	operator:alice	\\x7b22636f6e746578745f6964223a226e6f7768657265222c2274657874223a224e6f20636f6e746578742e227d	awmu_context_not_found	\\x7b226572726f72223a7b22636f6465223a2261776d755f636f6e746578745f6e6f745f666f756e64222c2264657461696c223a226e6f20776f726b696e672d6d656d6f727920636f6e7465787420276e6f776865726527222c226d657373616765223a226e6f20776f726b696e672d6d656d6f727920636f6e74657874206f66207468697320696420657869737473227d2c226f6b223a66616c73657d	4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945	87d5ab3da7156fcb2eff4df8e0e0534918dc8e5845741e6e5691ea58afa377ac	6bc3107f18b44649e59f121b00718a9929ed1b2a809d37958fa1c8ce1e0f1fa5
21	2026-01-01T00:00:21.000000Z	memory.awmu.propose	agent:dm	\\x7b22636f6e666964656e6365223a302e342c22636f6e746578745f6964223a2274617665726e222c22736f75726365223a22706c61796572222c2274657874223a2254686520626c61636b736d697468206f776573206d6f6e65792e227d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22636f6e666964656e6365223a302e342c226f7574636f6d65223a2272656a65637465645f6c6f775f636f6e666964656e6365227d7d	5e2ace9a32d937636e38d0e64e97f8945bbe74db04b8b54e318fb96d4a4fa508	6bc3107f18b44649e59f121b00718a9929ed1b2a809d37958fa1c8ce1e0f1fa5	09bfd26a296ccd1b637aeab26e2d527203458cc057b46f73e6b0df3fccda81fc
9	2026-01-01T00:00:09.000000Z	memory.awmu.propose	agent:dm	\\x7b22636f6e666964656e6365223a312e302c22636f6e746578745f6964223a2274617665726e222c22736f75726365223a2273797374656d222c2274657874223a22412073746f726d2067617468657273206f76657220746865207365612e227d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22636f6e666c69637473223a5b5d2c2264656d6f746564223a5b5d2c2265766963746564223a5b5d2c226f7574636f6d65223a2270726f6d6f746564222c2273757065727365646564223a5b5d2c227472757374223a7b226365696c696e67223a22554e52454c4941424c45222c2273636f7265223a302e3637362c227369676e616c73223a7b22636f72726f626f726174696f6e223a302e332c2265787472616374696f6e5f636f6e666964656e6365223a312e302c2267726170685f636f6e73697374656e6379223a302e352c22696d706f7274616e6365223a302e302c226e6f76656c7479223a312e302c22736f757263655f617574686f72697479223a312e307d2c227a6f6e65223a224155544f5f50524f4d4f5445227d2c22756e6974223a7b22617574686f72697479223a2250524f564953494f4e414c222c22617574686f726974795f6365696c696e67223a22554e52454c4941424c45222c22636f6e666964656e6365223a312e302c22636f6e746578745f6964223a2274617665726e222c22637265617465645f736571223a392c226c6173745f7265696e666f726365645f7475726e223a302c2270696e6e6564223a66616c73652c2272616e6b223a3530302c227265696e666f7263656d656e745f636f756e74223a302c22736f757263655f696473223a5b2273797374656d225d2c22737461747573223a22414354495645222c22737570657273656465645f6279223a6e756c6c2c2273757065727365646573223a5b5d2c2274657874223a22412073746f726d2067617468657273206f76657220746865207365612e222c2274696572223a225741524d222c2274727573745f73636f7265223a302e3637362c2274727573745f7369676e616c73223a7b22636f72726f626f726174696f6e223a302e332c2265787472616374696f6e5f636f6e666964656e6365223a312e302c2267726170685f636f6e73697374656e6379223a302e352c22696d706f7274616e6365223a302e302c226e6f76656c7479223a312e302c22736f757263655f617574686f72697479223a312e307d2c22756e69745f6964223a2275392d30222c22757064617465645f736571223a397d2c22756e69745f6964223a2275392d30227d7d	81e72d901a3a49bb12cf6e11b3a52dc2909e4f2fdb75019b921bae1c3c5016b0	aa45e4c25c50401b97640dc03601d8dfc53648c22eb9247ef67acbd2e80c1adc	f5158d3fbb330c94027521239ec92b3ecf6621276eb99bcd49d4cfbb1fb4edfe
10	2026-01-01T00:00:10.000000Z	memory.awmu.seed	operator:alice	\\x7b22636f6e746578745f6964223a2274617665726e222c2272616e6b223a3730302c2274657874223a22546865206f6c64206b696e6720697320646561642e227d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b2265766963746564223a5b5d2c226f7574636f6d65223a22736565646564222c22756e6974223a7b22617574686f72697479223a2252454c4941424c45222c22617574686f726974795f6365696c696e67223a2252454c4941424c45222c22636f6e666964656e6365223a312e302c22636f6e746578745f6964223a2274617665726e222c22637265617465645f736571223a31302c226c6173745f7265696e666f726365645f7475726e223a302c2270696e6e6564223a66616c73652c2272616e6b223a3730302c227265696e666f7263656d656e745f636f756e74223a302c22736f757263655f696473223a5b226f70657261746f72225d2c22737461747573223a22414354495645222c22737570657273656465645f6279223a6e756c6c2c2273757065727365646573223a5b5d2c2274657874223a22546865206f6c64206b696e6720697320646561642e222c2274696572223a22484f54222c2274727573745f73636f7265223a6e756c6c2c2274727573745f7369676e616c73223a7b7d2c22756e69745f6964223a227531302d30222c22757064617465645f736571223a31307d2c22756e69745f6964223a227531302d30227d7d	f6cba977fb35b3f6c9dce2cd7f6452e5697403ac0175e8561782ca28133d4436	f5158d3fbb330c94027521239ec92b3ecf6621276eb99bcd49d4cfbb1fb4edfe	bbea1c485ebd54b5c60305c5d65cdee0bb14e65eee1b5d37e5cb63d406b2d924
11	2026-01-01T00:00:11.000000Z	memory.awmu.seed	operator:alice	\\x7b22636f6e746578745f6964223a2274617665726e222c2270696e6e6564223a747275652c2274657874223a22456c617261206b65657073207468652053696c76657220537461672074617665726e2e227d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b2265766963746564223a5b5d2c226f7574636f6d65223a22736565646564222c22756e6974223a7b22617574686f72697479223a2252454c4941424c45222c22617574686f726974795f6365696c696e67223a2252454c4941424c45222c22636f6e666964656e6365223a312e302c22636f6e746578745f6964223a2274617665726e222c22637265617465645f736571223a31312c226c6173745f7265696e666f726365645f7475726e223a302c2270696e6e6564223a747275652c2272616e6b223a3530302c227265696e666f7263656d656e745f636f756e74223a302c22736f757263655f696473223a5b226f70657261746f72225d2c22737461747573223a22414354495645222c22737570657273656465645f6279223a6e756c6c2c2273757065727365646573223a5b5d2c2274657874223a22456c617261206b65657073207468652053696c76657220537461672074617665726e2e222c2274696572223a225741524d222c2274727573745f73636f7265223a6e756c6c2c2274727573745f7369676e616c73223a7b7d2c22756e69745f6964223a227531312d30222c22757064617465645f736571223a31317d2c22756e69745f6964223a227531312d30227d7d	6a0ea2780acddafeef36e3f85792abcfebad51d5938a71c8b63a7c1ed7ad5c38	bbea1c485ebd54b5c60305c5d65cdee0bb14e65eee1b5d37e5cb63d406b2d924	b8294ed3dd6c2deafe3c33b11eca982821143c504e29db6e1616de47e70649ed
12	2026-01-01T00:00:12.000000Z	memory.awmu.seed	operator:alice	\\x7b22617574686f72697479223a22554e52454c4941424c45222c22636f6e746578745f6964223a2274617665726e222c2272616e6b223a3330302c2274657874223a225468652066657272792063726f7373657320746865207269766572206174206461776e2e227d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b2265766963746564223a5b5d2c226f7574636f6d65223a22736565646564222c22756e6974223a7b22617574686f72697479223a22554e52454c4941424c45222c22617574686f726974795f6365696c696e67223a2252454c4941424c45222c22636f6e666964656e6365223a312e302c22636f6e746578745f6964223a2274617665726e222c22637265617465645f736571223a31322c226c6173745f7265696e666f726365645f7475726e223a302c2270696e6e6564223a66616c73652c2272616e6b223a3330302c227265696e666f7263656d656e745f636f756e74223a302c22736f757263655f696473223a5b226f70657261746f72225d2c22737461747573223a22414354495645222c22737570657273656465645f6279223a6e756c6c2c2273757065727365646573223a5b5d2c2274657874223a225468652066657272792063726f7373657320746865207269766572206174206461776e2e222c2274696572223a22434f4c44222c2274727573745f73636f7265223a6e756c6c2c2274727573745f7369676e616c73223a7b7d2c22756e69745f6964223a227531322d30222c22757064617465645f736571223a31327d2c22756e69745f6964223a227531322d30227d7d	dcb2a3a1bd1b293746e70e8afd7a17b5ced7d1b181f431906e01d9e6e393d529	b8294ed3dd6c2deafe3c33b11eca982821143c504e29db6e1616de47e70649ed	aed5843b95fa7d20907aa5d7af62ece85c12c8899327fabb6856d48f20c45179
13	2026-01-01T00:00:13.000000Z	memory.awmu.seed	operator:alice	\\x7b22617574686f72697479223a22554e52454c4941424c45222c22636f6e746578745f6964223a2274617665726e222c2272616e6b223a3435302c2274657874223a225468652076696c6c6167652077656c6c20697320706f69736f6e65642e227d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b2265766963746564223a5b5d2c226f7574636f6d65223a22736565646564222c22756e6974223a7b22617574686f72697479223a22554e52454c4941424c45222c22617574686f726974795f6365696c696e67223a2252454c4941424c45222c22636f6e666964656e6365223a312e302c22636f6e746578745f6964223a2274617665726e222c22637265617465645f736571223a31332c226c6173745f7265696e666f726365645f7475726e223a302c2270696e6e6564223a66616c73652c2272616e6b223a3435302c227265696e666f7263656d656e745f636f756e74223a302c22736f757263655f696473223a5b226f70657261746f72225d2c22737461747573223a22414354495645222c22737570657273656465645f6279223a6e756c6c2c2273757065727365646573223a5b5d2c2274657874223a225468652076696c6c6167652077656c6c20697320706f69736f6e65642e222c2274696572223a225741524d222c2274727573745f73636f7265223a6e756c6c2c2274727573745f7369676e616c73223a7b7d2c22756e69745f6964223a227531332d30222c22757064617465645f736571223a31337d2c22756e69745f6964223a227531332d30227d7d	a2c0fd7fafcc87e08cb71d2f58f44715ae0133ba18d7581bc0879dfb7372c976	aed5843b95fa7d20907aa5d7af62ece85c12c8899327fabb6856d48f20c45179	ea112c6188eea9d9fa60434dad9abfb44caa0b1697a91df5cabb11dffbdb4d15
14	2026-01-01T00:00:14.000000Z	memory.awmu.seed	operator:alice	\\x7b22617574686f72697479223a2252454c4941424c45222c22636f6e746578745f6964223a2274617665726e222c22736f75726365223a226c6564676572222c2274657874223a22546865206d696c6c20776865656c207475726e7320616761696e2e227d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b2265766963746564223a5b5d2c226f7574636f6d65223a22736565646564222c22756e6974223a7b22617574686f72697479223a2252454c4941424c45222c22617574686f726974795f6365696c696e67223a2252454c4941424c45222c22636f6e666964656e6365223a312e302c22636f6e746578745f6964223a2274617665726e222c22637265617465645f736571223a31342c226c6173745f7265696e666f726365645f7475726e223a302c2270696e6e6564223a66616c73652c2272616e6b223a3530302c227265696e666f7263656d656e745f636f756e74223a302c22736f757263655f696473223a5b226c6564676572225d2c22737461747573223a22414354495645222c22737570657273656465645f6279223a6e756c6c2c2273757065727365646573223a5b5d2c2274657874223a22546865206d696c6c20776865656c207475726e7320616761696e2e222c2274696572223a225741524d222c2274727573745f73636f7265223a6e756c6c2c2274727573745f7369676e616c73223a7b7d2c22756e69745f6964223a227531342d30222c22757064617465645f736571223a31347d2c22756e69745f6964223a227531342d30227d7d	1ef2b30b3b57613f0afcf242504570ede72143fc77ae75b2cea31e4080d7019c	ea112c6188eea9d9fa60434dad9abfb44caa0b1697a91df5cabb11dffbdb4d15	555541fd2523dc3d0ff32dc01d1d252f1003efd7a280793a2ab8cca2ccb6adde
15	2026-01-01T00:00:15.000000Z	memory.awmu.seed	operator:alice	\\x7b22636f6e746578745f6964223a2274617665726e222c2274657874223a22746865204f4c44206b696e67206973206465616421227d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b226475706c69636174655f6f66223a227531302d30222c226f7574636f6d65223a226475706c6963617465227d7d	3fb548b41b9eab965e11494f0007edd9b5464db1f66d6504014c0f7be84edca3	555541fd2523dc3d0ff32dc01d1d252f1003efd7a280793a2ab8cca2ccb6adde	d8ca10bd3d33d94ddd3741f14f890f0598eed7b943c39ed06556b96216fe02c8
16	2026-01-01T00:00:16.000000Z	memory.awmu.seed	agent:dm	\\x7b22636f6e746578745f6964223a2274617665726e222c2274657874223a224120647261676f6e206973206e6561722e227d	memory_policy_denied	\\x7b226572726f72223a7b22636f6465223a226d656d6f72795f706f6c6963795f64656e696564222c2264657461696c223a227072696e636970616c20276167656e743a646d27206d6179206e6f74207365656420696e207468697320636f6e74657874222c226d657373616765223a22746865206d656d6f727920706f6c696379207265667573656420746869732063616c6c227d2c226f6b223a66616c73657d	4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945	d8ca10bd3d33d94ddd3741f14f890f0598eed7b943c39ed06556b96216fe02c8	42b1267c8db17736527e18eacc27243f52b08d48e4ff87aa8a0dc28db5b89b89
17	2026-01-01T00:00:17.000000Z	memory.awmu.seed	operator:alice	\\x7b22617574686f72697479223a2243414e4f4e222c22636f6e746578745f6964223a2274617665726e222c2274657874223a224120676f642077616c6b732e227d	memory_policy_denied	\\x7b226572726f72223a7b22636f6465223a226d656d6f72795f706f6c6963795f64656e696564222c2264657461696c223a226120736565642063616e6e6f742062652043414e4f4e3a20736565642069742052454c4941424c452c207468656e2063616e6f6e697a6520616e6420726576696577206974222c226d657373616765223a22746865206d656d6f727920706f6c696379207265667573656420746869732063616c6c227d2c226f6b223a66616c73657d	4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945	42b1267c8db17736527e18eacc27243f52b08d48e4ff87aa8a0dc28db5b89b89	f12d017bca8ae7fccadf646b888053df20d856d5c598e94bdb426617d6030d54
18	2026-01-01T00:00:18.000000Z	memory.awmu.seed	operator:alice	\\x7b22636f6e746578745f6964223a2274617665726e222c2274657874223a223f212e2e2e227d	awmu_invalid_text	\\x7b226572726f72223a7b22636f6465223a2261776d755f696e76616c69645f74657874222c2264657461696c223a22746865207465787420686173206e6f20776f726473222c226d657373616765223a2274686520756e6974207465787420697320656d707479206f7220746f6f206c6f6e67227d2c226f6b223a66616c73657d	4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945	f12d017bca8ae7fccadf646b888053df20d856d5c598e94bdb426617d6030d54	4438747eae5077d6ef739d45f21764b5d23426f7af211b61544e6f1baefd0195
19	2026-01-01T00:00:19.000000Z	memory.awmu.seed	operator:alice	\\x7b22636f6e746578745f6964223a2274617665726e222c2272616e6b223a3930312c2274657874223a22412072616e6b20746f6f20686967682e227d	invalid_args	\\x7b226572726f72223a7b22636f6465223a22696e76616c69645f61726773222c2264657461696c223a2245787065637465642060696e7460203c3d20393030202d2061742060242e72616e6b60222c226d657373616765223a2274686520617267756d656e747320646f206e6f74206d61746368207468652073797363616c6c277320726571756573742074797065227d2c226f6b223a66616c73657d	4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945	4438747eae5077d6ef739d45f21764b5d23426f7af211b61544e6f1baefd0195	87d5ab3da7156fcb2eff4df8e0e0534918dc8e5845741e6e5691ea58afa377ac
22	2026-01-01T00:00:22.000000Z	memory.awmu.propose	agent:dm	\\x7b22636f6e666964656e6365223a302e392c22636f6e746578745f6964223a2274617665726e222c22736f75726365223a22646d222c2274657874223a22412053544f524d2067617468657273206f7665722074686520736561227d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b226475706c69636174655f6f66223a2275392d30222c226f7574636f6d65223a226475706c6963617465227d7d	156e70abefd6be90c513be36c73a6b1a3fe8ddfe5a73483d5cf4e0b744c735cf	09bfd26a296ccd1b637aeab26e2d527203458cc057b46f73e6b0df3fccda81fc	d253e4ec65c900bc460449d89d9f373e1651d3b0d1d43a8d83c09c773e7ece55
23	2026-01-01T00:00:23.000000Z	memory.awmu.propose	agent:dm	\\x7b22636f6e666964656e6365223a302e392c22636f6e746578745f6964223a2274617665726e222c22736f75726365223a22706c61796572222c2274657874223a22546865206f6c64206b696e67206973206e6f7420646561642e227d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22636f6e666c69637473223a5b7b22636f6e666964656e6365223a302e37352c226465746563746f72223a226c65786963616c222c226578697374696e675f617574686f72697479223a2252454c4941424c45222c227265736f6c7574696f6e223a224b4545505f4558495354494e47222c2274797065223a22434f4e54524144494354494f4e222c22756e69745f6964223a227531302d30227d5d2c226f7574636f6d65223a2272656a65637465645f636f6e666c696374222c227472757374223a7b226365696c696e67223a22554e52454c4941424c45222c2273636f7265223a302e36312c227369676e616c73223a7b22636f72726f626f726174696f6e223a302e332c2265787472616374696f6e5f636f6e666964656e6365223a302e392c2267726170685f636f6e73697374656e6379223a312e302c22696d706f7274616e6365223a312e302c226e6f76656c7479223a302e302c22736f757263655f617574686f72697479223a302e337d2c227a6f6e65223a22524556494557227d7d7d	a201a58ca2caaece7a860758c72bc8a28b44a8af1aed118c202a0a29b122b943	d253e4ec65c900bc460449d89d9f373e1651d3b0d1d43a8d83c09c773e7ece55	290c8c6fc82b251409044850bd4294a8b19c3993cc61a62a14854497a1207936
24	2026-01-01T00:00:24.000000Z	memory.awmu.propose	agent:dm	\\x7b22636f6e666964656e6365223a302e392c22636f6e746578745f6964223a2274617665726e222c22736f75726365223a22646d222c2274657874223a224120647261676f6e20736c656570732062656e6561746820746865206d6f756e7461696e2e227d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22636f6e666c69637473223a5b5d2c226f7574636f6d65223a227175657565645f666f725f726576696577222c227265766965775f6964223a22723234222c227472757374223a7b226365696c696e67223a22554e52454c4941424c45222c2273636f7265223a302e3537342c227369676e616c73223a7b22636f72726f626f726174696f6e223a302e332c2265787472616374696f6e5f636f6e666964656e6365223a302e392c2267726170685f636f6e73697374656e6379223a302e322c22696d706f7274616e6365223a302e333333333333333333333333333333332c226e6f76656c7479223a302e382c22736f757263655f617574686f72697479223a302e397d2c227a6f6e65223a22524556494557227d7d7d	9299b93d4935bbf193d03e42dd707ae5c0efb059da6f1c6987fb9fa1e63dde6e	290c8c6fc82b251409044850bd4294a8b19c3993cc61a62a14854497a1207936	4c718d7b179997387d5e4227c5002644e2392b8820a16d7153591c6ee69b582a
25	2026-01-01T00:00:25.000000Z	memory.awmu.propose	agent:dm	\\x7b22636f6e666964656e6365223a302e392c22636f6e746578745f6964223a2274617665726e222c22736f75726365223a22646d222c2274657874223a22546865207072696573742068696465732061206b65792e227d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22636f6e666c69637473223a5b5d2c226f7574636f6d65223a227175657565645f666f725f726576696577222c227265766965775f6964223a22723235222c227472757374223a7b226365696c696e67223a22554e52454c4941424c45222c2273636f7265223a302e3538313535362c227369676e616c73223a7b22636f72726f626f726174696f6e223a302e332c2265787472616374696f6e5f636f6e666964656e6365223a302e392c2267726170685f636f6e73697374656e6379223a302e323232323232323232323232323232322c22696d706f7274616e6365223a302e342c226e6f76656c7479223a302e373737373737373737373737373737382c22736f757263655f617574686f72697479223a302e397d2c227a6f6e65223a22524556494557227d7d7d	8f4a715d4d2a3f814909154967786fad277581abc71e1816b37af5e735c08f7a	4c718d7b179997387d5e4227c5002644e2392b8820a16d7153591c6ee69b582a	40dbfc12e3097c867f7415d185ee788b28ba60f5177eb12ba7165ad35dbb3086
26	2026-01-01T00:00:26.000000Z	memory.awmu.propose	agent:dm	\\x7b22636f6e666964656e6365223a302e36362c22636f6e746578745f6964223a2274617665726e222c22736f75726365223a22706c61796572222c2274657874223a22546865206d6f6f6e206973206d616465206f66206368656573652e227d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22636f6e666c69637473223a5b5d2c226f7574636f6d65223a226172636869766564222c227472757374223a7b226365696c696e67223a2250524f564953494f4e414c222c2273636f7265223a302e3339323735362c227369676e616c73223a7b22636f72726f626f726174696f6e223a302e332c2265787472616374696f6e5f636f6e666964656e6365223a302e36362c2267726170685f636f6e73697374656e6379223a302e323232323232323232323232323232322c22696d706f7274616e6365223a302e333333333333333333333333333333332c226e6f76656c7479223a302e373737373737373737373737373737382c22736f757263655f617574686f72697479223a302e337d2c227a6f6e65223a2241524348495645227d7d7d	e962967dc295bfe1291dfa667f58b86b85e0c5d33f1874f22d1f9ff9046d6f21	40dbfc12e3097c867f7415d185ee788b28ba60f5177eb12ba7165ad35dbb3086	7b560ca6adb9390fa863d5299ee86eb57463fbfb2eb6bf679d77d2415067bf7e
27	2026-01-01T00:00:27.000000Z	memory.awmu.propose	agent:dm	\\x7b22636f6e666964656e6365223a312e302c22636f6e746578745f6964223a2274617665726e222c22736f75726365223a2273797374656d222c2274657874223a225468652073746f726d206f7665722074686520736561206861732063616c6d65642e222c227665726469637473223a5b7b22636f6e666964656e6365223a302e392c226465746563746f72223a226a75646765222c2274797065223a22434f4e54524144494354494f4e222c22756e69745f6964223a2275392d30227d5d7d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22636f6e666c69637473223a5b7b22636f6e666964656e6365223a302e392c226465746563746f72223a226a75646765222c226578697374696e675f617574686f72697479223a2250524f564953494f4e414c222c227265736f6c7574696f6e223a225245504c414345222c2274797065223a22434f4e54524144494354494f4e222c22756e69745f6964223a2275392d30227d5d2c2264656d6f746564223a5b5d2c2265766963746564223a5b5d2c226f7574636f6d65223a2270726f6d6f746564222c2273757065727365646564223a5b2275392d30225d2c227472757374223a7b226365696c696e67223a22554e52454c4941424c45222c2273636f7265223a302e3638362c227369676e616c73223a7b22636f72726f626f726174696f6e223a302e332c2265787472616374696f6e5f636f6e666964656e6365223a312e302c2267726170685f636f6e73697374656e6379223a302e352c22696d706f7274616e6365223a302e363636363636363636363636363636362c226e6f76656c7479223a302e352c22736f757263655f617574686f72697479223a312e307d2c227a6f6e65223a224155544f5f50524f4d4f5445227d2c22756e6974223a7b22617574686f72697479223a2250524f564953494f4e414c222c22617574686f726974795f6365696c696e67223a22554e52454c4941424c45222c22636f6e666964656e6365223a312e302c22636f6e746578745f6964223a2274617665726e222c22637265617465645f736571223a32372c226c6173745f7265696e666f726365645f7475726e223a302c2270696e6e6564223a66616c73652c2272616e6b223a3530302c227265696e666f7263656d656e745f636f756e74223a302c22736f757263655f696473223a5b2273797374656d225d2c22737461747573223a22414354495645222c22737570657273656465645f6279223a6e756c6c2c2273757065727365646573223a5b2275392d30225d2c2274657874223a225468652073746f726d206f7665722074686520736561206861732063616c6d65642e222c2274696572223a225741524d222c2274727573745f73636f7265223a302e3638362c2274727573745f7369676e616c73223a7b22636f72726f626f726174696f6e223a302e332c2265787472616374696f6e5f636f6e666964656e6365223a312e302c2267726170685f636f6e73697374656e6379223a302e352c22696d706f7274616e6365223a302e363636363636363636363636363636362c226e6f76656c7479223a302e352c22736f757263655f617574686f72697479223a312e307d2c22756e69745f6964223a227532372d30222c22757064617465645f736571223a32377d2c22756e69745f6964223a227532372d30227d7d	f571e8be9acaebb11f240a7ef28b7550bd87f6d6041787d45e51924675025788	7b560ca6adb9390fa863d5299ee86eb57463fbfb2eb6bf679d77d2415067bf7e	31279bb7911099d506049552ca4f28b29864ab97c7d8296021629947d87d3eba
28	2026-01-01T00:00:28.000000Z	memory.awmu.propose	agent:dm	\\x7b22636f6e666964656e6365223a312e302c22636f6e746578745f6964223a2274617665726e222c22736f75726365223a2273797374656d222c2274657874223a225468652076696c6c6167652077656c6c20697320636c65616e7365642e222c227665726469637473223a5b7b22636f6e666964656e6365223a302e382c2274797065223a225245564953494f4e222c22756e69745f6964223a227531332d30227d5d7d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22636f6e666c69637473223a5b7b22636f6e666964656e6365223a302e382c226465746563746f72223a2263616c6c6572222c226578697374696e675f617574686f72697479223a22554e52454c4941424c45222c227265736f6c7574696f6e223a225245504c414345222c2274797065223a225245564953494f4e222c22756e69745f6964223a227531332d30227d5d2c2264656d6f746564223a5b5d2c2265766963746564223a5b5d2c226f7574636f6d65223a2270726f6d6f746564222c2273757065727365646564223a5b227531332d30225d2c227472757374223a7b226365696c696e67223a22554e52454c4941424c45222c2273636f7265223a302e3732303636372c227369676e616c73223a7b22636f72726f626f726174696f6e223a302e332c2265787472616374696f6e5f636f6e666964656e6365223a312e302c2267726170685f636f6e73697374656e6379223a302e363636363636363636363636363636362c22696d706f7274616e6365223a302e382c226e6f76656c7479223a302e33333333333333333333333333333333372c22736f757263655f617574686f72697479223a312e307d2c227a6f6e65223a224155544f5f50524f4d4f5445227d2c22756e6974223a7b22617574686f72697479223a2250524f564953494f4e414c222c22617574686f726974795f6365696c696e67223a22554e52454c4941424c45222c22636f6e666964656e6365223a312e302c22636f6e746578745f6964223a2274617665726e222c22637265617465645f736571223a32382c226c6173745f7265696e666f726365645f7475726e223a302c2270696e6e6564223a66616c73652c2272616e6b223a3530302c227265696e666f7263656d656e745f636f756e74223a302c22736f757263655f696473223a5b2273797374656d225d2c22737461747573223a22414354495645222c22737570657273656465645f6279223a6e756c6c2c2273757065727365646573223a5b227531332d30225d2c2274657874223a225468652076696c6c6167652077656c6c20697320636c65616e7365642e222c2274696572223a225741524d222c2274727573745f73636f7265223a302e3732303636372c2274727573745f7369676e616c73223a7b22636f72726f626f726174696f6e223a302e332c2265787472616374696f6e5f636f6e666964656e6365223a312e302c2267726170685f636f6e73697374656e6379223a302e363636363636363636363636363636362c22696d706f7274616e6365223a302e382c226e6f76656c7479223a302e33333333333333333333333333333333372c22736f757263655f617574686f72697479223a312e307d2c22756e69745f6964223a227532382d30222c22757064617465645f736571223a32387d2c22756e69745f6964223a227532382d30227d7d	1f6bee349ad4f4d18e33adef1a299c508b7285a435f4f12a83446fd3c9dcaf91	31279bb7911099d506049552ca4f28b29864ab97c7d8296021629947d87d3eba	e540479daa1343964fa2194b45e87b544d10ca0b8d2876f6af49e189e2a4e785
29	2026-01-01T00:00:29.000000Z	memory.awmu.propose	agent:dm	\\x7b22636f6e666964656e6365223a312e302c22636f6e746578745f6964223a2274617665726e222c22736f75726365223a2273797374656d222c2274657874223a22546865206d696c6c20776865656c207475726e7320736c6f77657220696e2077696e7465722e222c227665726469637473223a5b7b22636f6e666964656e6365223a302e392c2274797065223a22574f524c445f50524f4752455353494f4e222c22756e69745f6964223a227531342d30227d5d7d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22636f6e666c69637473223a5b7b22636f6e666964656e6365223a302e392c226465746563746f72223a2263616c6c6572222c226578697374696e675f617574686f72697479223a2252454c4941424c45222c227265736f6c7574696f6e223a22434f4558495354222c2274797065223a22574f524c445f50524f4752455353494f4e222c22756e69745f6964223a227531342d30227d5d2c2264656d6f746564223a5b5d2c2265766963746564223a5b5d2c226f7574636f6d65223a2270726f6d6f746564222c2273757065727365646564223a5b5d2c227472757374223a7b226365696c696e67223a22554e52454c4941424c45222c2273636f7265223a302e3638303238362c227369676e616c73223a7b22636f72726f626f726174696f6e223a302e332c2265787472616374696f6e5f636f6e666964656e6365223a312e302c2267726170685f636f6e73697374656e6379223a302e352c22696d706f7274616e6365223a302e353731343238353731343238353731342c226e6f76656c7479223a302e352c22736f757263655f617574686f72697479223a312e307d2c227a6f6e65223a224155544f5f50524f4d4f5445227d2c22756e6974223a7b22617574686f72697479223a2250524f564953494f4e414c222c22617574686f726974795f6365696c696e67223a22554e52454c4941424c45222c22636f6e666964656e6365223a312e302c22636f6e746578745f6964223a2274617665726e222c22637265617465645f736571223a32392c226c6173745f7265696e666f726365645f7475726e223a302c2270696e6e6564223a66616c73652c2272616e6b223a3530302c227265696e666f7263656d656e745f636f756e74223a302c22736f757263655f696473223a5b2273797374656d225d2c22737461747573223a22414354495645222c22737570657273656465645f6279223a6e756c6c2c2273757065727365646573223a5b5d2c2274657874223a22546865206d696c6c20776865656c207475726e7320736c6f77657220696e2077696e7465722e222c2274696572223a225741524d222c2274727573745f73636f7265223a302e3638303238362c2274727573745f7369676e616c73223a7b22636f72726f626f726174696f6e223a302e332c2265787472616374696f6e5f636f6e666964656e6365223a312e302c2267726170685f636f6e73697374656e6379223a302e352c22696d706f7274616e6365223a302e353731343238353731343238353731342c226e6f76656c7479223a302e352c22736f757263655f617574686f72697479223a312e307d2c22756e69745f6964223a227532392d30222c22757064617465645f736571223a32397d2c22756e69745f6964223a227532392d30227d7d	d71940744fbadb147bfb9068872aa9ca0a7015783d509c9891f0488430c1f92f	e540479daa1343964fa2194b45e87b544d10ca0b8d2876f6af49e189e2a4e785	ecf0794fce270813b423745c7cb1f1b8c7af36b5151da6abaaa74d8975df417e
30	2026-01-01T00:00:30.000000Z	memory.awmu.propose	agent:dm	\\x7b22636f6e666964656e6365223a312e302c22636f6e746578745f6964223a2274617665726e222c22736f75726365223a2273797374656d222c2274657874223a225468652073746f726d20686173207061737365642e222c227665726469637473223a5b7b22636f6e666964656e6365223a302e392c2274797065223a22434f4e54524144494354494f4e222c22756e69745f6964223a2275392d30227d5d7d	awmu_invalid_verdict	\\x7b226572726f72223a7b22636f6465223a2261776d755f696e76616c69645f76657264696374222c2264657461696c223a2276657264696374206e616d6573202775392d30272c206e6f7420616e2061637469766520756e6974206f66207468697320636f6e74657874222c226d657373616765223a226120636f6e666c6963742076657264696374206e616d6573206e6f2061637469766520756e6974206f662074686520636f6e74657874227d2c226f6b223a66616c73657d	4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945	ecf0794fce270813b423745c7cb1f1b8c7af36b5151da6abaaa74d8975df417e	f3776ebdfe0a776f108aebd0c7450e3c52089637145e44c5d59b76279dda171e
31	2026-01-01T00:00:31.000000Z	memory.awmu.propose	agent:dm	\\x7b22636f6e666964656e6365223a302e392c22636f6e746578745f6964223a2274617665726e222c22736f75726365223a22646d222c2274657874223a222e2e2e227d	awmu_invalid_text	\\x7b226572726f72223a7b22636f6465223a2261776d755f696e76616c69645f74657874222c2264657461696c223a22746865207465787420686173206e6f20776f726473222c226d657373616765223a2274686520756e6974207465787420697320656d707479206f7220746f6f206c6f6e67227d2c226f6b223a66616c73657d	4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945	f3776ebdfe0a776f108aebd0c7450e3c52089637145e44c5d59b76279dda171e	3b78cb2721fc2674c85de307af499d36fa5fb3c5b2381d55d317b2595396403b
32	2026-01-01T00:00:32.000000Z	memory.awmu.propose	agent:dm	\\x7b22636f6e666964656e6365223a312e352c22636f6e746578745f6964223a2274617665726e222c22736f75726365223a22646d222c2274657874223a22546f6f20737572652e227d	invalid_args	\\x7b226572726f72223a7b22636f6465223a22696e76616c69645f61726773222c2264657461696c223a2245787065637465642060666c6f617460203c3d20312e30202d2061742060242e636f6e666964656e636560222c226d657373616765223a2274686520617267756d656e747320646f206e6f74206d61746368207468652073797363616c6c277320726571756573742074797065227d2c226f6b223a66616c73657d	4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945	3b78cb2721fc2674c85de307af499d36fa5fb3c5b2381d55d317b2595396403b	767b0af41963516df458eca5991d2dcd8914582e225a782b12c7266ab06a618d
33	2026-01-01T00:00:33.000000Z	memory.awmu.propose	agent:dm	\\x7b22636f6e666964656e6365223a302e392c22636f6e746578745f6964223a2274617665726e222c2274657874223a224e6f20736f757263652e227d	invalid_args	\\x7b226572726f72223a7b22636f6465223a22696e76616c69645f61726773222c2264657461696c223a224f626a656374206d697373696e67207265717569726564206669656c642060736f7572636560222c226d657373616765223a2274686520617267756d656e747320646f206e6f74206d61746368207468652073797363616c6c277320726571756573742074797065227d2c226f6b223a66616c73657d	4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945	767b0af41963516df458eca5991d2dcd8914582e225a782b12c7266ab06a618d	6a6c943669d021ac37991bad4f87126d91d6aefc987247481e6835794c1cd21a
34	2026-01-01T00:00:34.000000Z	memory.awmu.review	operator:alice	\\x7b226465636973696f6e223a22617070726f7665222c226e6f7465223a226669747320746865206d6f64756c65222c22726571756573745f6964223a22723234227d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22636f6e666c69637473223a5b5d2c2264656d6f746564223a5b5d2c2265766963746564223a5b5d2c226f7574636f6d65223a2270726f6d6f746564222c22726576696577223a7b22617574686f726974795f6365696c696e67223a22554e52454c4941424c45222c22636f6e666964656e6365223a302e392c22636f6e746578745f6964223a2274617665726e222c22637265617465645f736571223a32342c22646563696465645f6279223a226f70657261746f723a616c696365222c22646563696465645f736571223a33342c227265766965775f6964223a22723234222c22736f75726365223a22646d222c22737461747573223a22415050524f564544222c2274657874223a224120647261676f6e20736c656570732062656e6561746820746865206d6f756e7461696e2e222c2274727573745f73636f7265223a302e3537342c2274727573745f7369676e616c73223a7b22636f72726f626f726174696f6e223a302e332c2265787472616374696f6e5f636f6e666964656e6365223a302e392c2267726170685f636f6e73697374656e6379223a302e322c22696d706f7274616e6365223a302e333333333333333333333333333333332c226e6f76656c7479223a302e382c22736f757263655f617574686f72697479223a302e397d2c22756e69745f6964223a227533342d30222c227665726469637473223a5b5d7d2c2273757065727365646564223a5b5d2c22756e6974223a7b22617574686f72697479223a2250524f564953494f4e414c222c22617574686f726974795f6365696c696e67223a22554e52454c4941424c45222c22636f6e666964656e6365223a302e392c22636f6e746578745f6964223a2274617665726e222c22637265617465645f736571223a33342c226c6173745f7265696e666f726365645f7475726e223a302c2270696e6e6564223a66616c73652c2272616e6b223a3530302c227265696e666f7263656d656e745f636f756e74223a302c22736f757263655f696473223a5b22646d225d2c22737461747573223a22414354495645222c22737570657273656465645f6279223a6e756c6c2c2273757065727365646573223a5b5d2c2274657874223a224120647261676f6e20736c656570732062656e6561746820746865206d6f756e7461696e2e222c2274696572223a225741524d222c2274727573745f73636f7265223a302e3537342c2274727573745f7369676e616c73223a7b22636f72726f626f726174696f6e223a302e332c2265787472616374696f6e5f636f6e666964656e6365223a302e392c2267726170685f636f6e73697374656e6379223a302e322c22696d706f7274616e6365223a302e333333333333333333333333333333332c226e6f76656c7479223a302e382c22736f757263655f617574686f72697479223a302e397d2c22756e69745f6964223a227533342d30222c22757064617465645f736571223a33347d2c22756e69745f6964223a227533342d30227d7d	ab25e21143470175d4e9cf5aa5d7c9afdd0eae74da72009a1dca1bc5ed5043ec	6a6c943669d021ac37991bad4f87126d91d6aefc987247481e6835794c1cd21a	f303ca18a065976e4d16c7b2f37a78f52dd591eeea02b9dafadc41dd7866a8f3
35	2026-01-01T00:00:35.000000Z	memory.awmu.review	operator:alice	\\x7b226465636973696f6e223a2272656a656374222c226e6f7465223a226e6f2065766964656e6365222c22726571756573745f6964223a22723235227d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b226f7574636f6d65223a2272656a6563746564222c22726576696577223a7b22617574686f726974795f6365696c696e67223a22554e52454c4941424c45222c22636f6e666964656e6365223a302e392c22636f6e746578745f6964223a2274617665726e222c22637265617465645f736571223a32352c22646563696465645f6279223a226f70657261746f723a616c696365222c22646563696465645f736571223a33352c227265766965775f6964223a22723235222c22736f75726365223a22646d222c22737461747573223a2252454a4543544544222c2274657874223a22546865207072696573742068696465732061206b65792e222c2274727573745f73636f7265223a302e3538313535362c2274727573745f7369676e616c73223a7b22636f72726f626f726174696f6e223a302e332c2265787472616374696f6e5f636f6e666964656e6365223a302e392c2267726170685f636f6e73697374656e6379223a302e323232323232323232323232323232322c22696d706f7274616e6365223a302e342c226e6f76656c7479223a302e373737373737373737373737373737382c22736f757263655f617574686f72697479223a302e397d2c22756e69745f6964223a6e756c6c2c227665726469637473223a5b5d7d7d7d	9460ca84e29eb4a99c5f98bac619e57fb857d20ba8bc7c00c6741b65894f1ed1	f303ca18a065976e4d16c7b2f37a78f52dd591eeea02b9dafadc41dd7866a8f3	2b745cd0aa5175bf6f7ee035150bdbe1090b41ee8a66cb00f8397ef61aeffe8e
36	2026-01-01T00:00:36.000000Z	memory.awmu.review	operator:alice	\\x7b226465636973696f6e223a22617070726f7665222c22726571756573745f6964223a22723235227d	awmu_request_decided	\\x7b226572726f72223a7b22636f6465223a2261776d755f726571756573745f64656369646564222c2264657461696c223a227175657565642070726f706f73616c2027723235272069732052454a4543544544222c226d657373616765223a22746865207265717565737420686173206265656e206465636964656420616c7265616479227d2c226f6b223a66616c73657d	4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945	2b745cd0aa5175bf6f7ee035150bdbe1090b41ee8a66cb00f8397ef61aeffe8e	88f5b8829a732fc2000c14ef482e2e26909a548bb86150e7ee505afbfd7d2c6a
37	2026-01-01T00:00:37.000000Z	memory.awmu.review	operator:alice	\\x7b226465636973696f6e223a22617070726f7665222c22726571756573745f6964223a22723939393939227d	awmu_request_not_found	\\x7b226572726f72223a7b22636f6465223a2261776d755f726571756573745f6e6f745f666f756e64222c2264657461696c223a226e6f2072657175657374202772393939393927222c226d657373616765223a226e6f2063616e6f6e697a6174696f6e2072657175657374206f72207175657565642070726f706f73616c206f66207468697320696420657869737473227d2c226f6b223a66616c73657d	4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945	88f5b8829a732fc2000c14ef482e2e26909a548bb86150e7ee505afbfd7d2c6a	59130537fdc62f9bd539dcca5b681107f612ff1e6770ecbb5bef4b0caa533dfe
38	2026-01-01T00:00:38.000000Z	memory.awmu.review	operator:alice	\\x7b226465636973696f6e223a22617070726f7665222c22726571756573745f6964223a22633939393939227d	awmu_request_not_found	\\x7b226572726f72223a7b22636f6465223a2261776d755f726571756573745f6e6f745f666f756e64222c2264657461696c223a226e6f2072657175657374202763393939393927222c226d657373616765223a226e6f2063616e6f6e697a6174696f6e2072657175657374206f72207175657565642070726f706f73616c206f66207468697320696420657869737473227d2c226f6b223a66616c73657d	4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945	59130537fdc62f9bd539dcca5b681107f612ff1e6770ecbb5bef4b0caa533dfe	5bf7424777589bdbfd2509ff994ded26dc61793ddee1a1b263a7f48260ad1963
39	2026-01-01T00:00:39.000000Z	memory.awmu.review	operator:alice	\\x7b226465636973696f6e223a226d61796265222c22726571756573745f6964223a22723235227d	invalid_args	\\x7b226572726f72223a7b22636f6465223a22696e76616c69645f61726773222c2264657461696c223a22496e76616c696420656e756d2076616c756520276d6179626527202d2061742060242e6465636973696f6e60222c226d657373616765223a2274686520617267756d656e747320646f206e6f74206d61746368207468652073797363616c6c277320726571756573742074797065227d2c226f6b223a66616c73657d	4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945	5bf7424777589bdbfd2509ff994ded26dc61793ddee1a1b263a7f48260ad1963	928123290dd1d09abc3c52b98eacf3db7241e015a29b75df6b05d7f60d95a342
40	2026-01-01T00:00:40.000000Z	memory.awmu.canonize	agent:dm	\\x7b22636f6e746578745f6964223a2274617665726e222c22726561736f6e223a2263656e7472616c20746f2074686520706c6f74222c22756e69745f6964223a227531302d30227d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b2272657175657374223a7b22617574686f726974795f61745f72657175657374223a2252454c4941424c45222c22636f6e746578745f6964223a2274617665726e222c22637265617465645f736571223a34302c22646563696465645f6279223a6e756c6c2c22646563696465645f736571223a6e756c6c2c22726561736f6e223a2263656e7472616c20746f2074686520706c6f74222c22726571756573745f6964223a22633430222c227265717565737465645f6279223a226167656e743a646d222c22737461747573223a2250454e44494e47222c22756e69745f6964223a227531302d30222c22756e69745f757064617465645f736571223a31307d7d7d	2da4d577188e0db7b8f361f4ba7f3b20c54355fb79c03cb03b5c8a8ed6bbe944	928123290dd1d09abc3c52b98eacf3db7241e015a29b75df6b05d7f60d95a342	3477a0d610361b4eadc211a8437c9f441a157e5ad120fd9634576db0bb7d76d4
41	2026-01-01T00:00:41.000000Z	memory.awmu.canonize	agent:dm	\\x7b22636f6e746578745f6964223a2274617665726e222c22756e69745f6964223a227531302d30227d	awmu_request_pending	\\x7b226572726f72223a7b22636f6465223a2261776d755f726571756573745f70656e64696e67222c2264657461696c223a227265717565737420276334302720666f72207468697320756e6974206973207374696c6c2070656e64696e67222c226d657373616765223a22612063616e6f6e697a6174696f6e207265717565737420666f72207468697320756e69742069732070656e64696e6720616c7265616479227d2c226f6b223a66616c73657d	4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945	3477a0d610361b4eadc211a8437c9f441a157e5ad120fd9634576db0bb7d76d4	437c8a60af48f9405725cc0c36c43e68bf6334cc2620f73b7972033faa7dba4a
42	2026-01-01T00:00:42.000000Z	memory.awmu.review	agent:dm	\\x7b226465636973696f6e223a22617070726f7665222c22726571756573745f6964223a22633430227d	memory_policy_denied	\\x7b226572726f72223a7b22636f6465223a226d656d6f72795f706f6c6963795f64656e696564222c2264657461696c223a227072696e636970616c20276167656e743a646d27206d6179206e6f742072657669657720696e207468697320636f6e74657874222c226d657373616765223a22746865206d656d6f727920706f6c696379207265667573656420746869732063616c6c227d2c226f6b223a66616c73657d	4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945	437c8a60af48f9405725cc0c36c43e68bf6334cc2620f73b7972033faa7dba4a	7e2e9b00c73bc6c769129d988cf60f9c381c37ff09bd32088fbadafa73470116
43	2026-01-01T00:00:43.000000Z	memory.awmu.review	operator:alice	\\x7b226465636973696f6e223a22617070726f7665222c22726571756573745f6964223a22633430227d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b2272657175657374223a7b22617574686f726974795f61745f72657175657374223a2252454c4941424c45222c22636f6e746578745f6964223a2274617665726e222c22637265617465645f736571223a34302c22646563696465645f6279223a226f70657261746f723a616c696365222c22646563696465645f736571223a34332c22726561736f6e223a2263656e7472616c20746f2074686520706c6f74222c22726571756573745f6964223a22633430222c227265717565737465645f6279223a226167656e743a646d222c22737461747573223a22415050524f564544222c22756e69745f6964223a227531302d30222c22756e69745f757064617465645f736571223a31307d2c22756e6974223a7b22617574686f72697479223a2243414e4f4e222c22617574686f726974795f6365696c696e67223a2252454c4941424c45222c22636f6e666964656e6365223a312e302c22636f6e746578745f6964223a2274617665726e222c22637265617465645f736571223a31302c226c6173745f7265696e666f726365645f7475726e223a302c2270696e6e6564223a66616c73652c2272616e6b223a3730302c227265696e666f7263656d656e745f636f756e74223a302c22736f757263655f696473223a5b226f70657261746f72225d2c22737461747573223a22414354495645222c22737570657273656465645f6279223a6e756c6c2c2273757065727365646573223a5b5d2c2274657874223a22546865206f6c64206b696e6720697320646561642e222c2274696572223a22484f54222c2274727573745f73636f7265223a6e756c6c2c2274727573745f7369676e616c73223a7b7d2c22756e69745f6964223a227531302d30222c22757064617465645f736571223a34337d7d7d	629897a18f46fc03221adcb5fa97cc9513972023146403c801f85d351c18e858	7e2e9b00c73bc6c769129d988cf60f9c381c37ff09bd32088fbadafa73470116	7ebee5571f8177eb8000329a493fcb946faca4e1378a1790c2386bd9a1572473
44	2026-01-01T00:00:44.000000Z	memory.awmu.canonize	agent:dm	\\x7b22636f6e746578745f6964223a2274617665726e222c22756e69745f6964223a227531302d30227d	awmu_already_canon	\\x7b226572726f72223a7b22636f6465223a2261776d755f616c72656164795f63616e6f6e222c2264657461696c223a22756e697420277531302d302720697320616c72656164792043414e4f4e222c226d657373616765223a2274686520756e69742069732043414e4f4e20616c7265616479227d2c226f6b223a66616c73657d	4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945	7ebee5571f8177eb8000329a493fcb946faca4e1378a1790c2386bd9a1572473	399ddd9a0c033905d624e05388ff856d8d7653868d24e519d8f23a3f1a70d763
45	2026-01-01T00:00:45.000000Z	memory.awmu.review	operator:alice	\\x7b226465636973696f6e223a2272656a656374222c22726571756573745f6964223a22633430227d	awmu_request_decided	\\x7b226572726f72223a7b22636f6465223a2261776d755f726571756573745f64656369646564222c2264657461696c223a227265717565737420276334302720697320415050524f564544222c226d657373616765223a22746865207265717565737420686173206265656e206465636964656420616c7265616479227d2c226f6b223a66616c73657d	4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945	399ddd9a0c033905d624e05388ff856d8d7653868d24e519d8f23a3f1a70d763	1f9ee3d779fabcd6f0d4cd3712406ed125806df8d2ebf25704fe734bd35261e8
46	2026-01-01T00:00:46.000000Z	memory.awmu.canonize	agent:dm	\\x7b22636f6e746578745f6964223a2274617665726e222c22756e69745f6964223a227531342d30227d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b2272657175657374223a7b22617574686f726974795f61745f72657175657374223a2252454c4941424c45222c22636f6e746578745f6964223a2274617665726e222c22637265617465645f736571223a34362c22646563696465645f6279223a6e756c6c2c22646563696465645f736571223a6e756c6c2c22726561736f6e223a22222c22726571756573745f6964223a22633436222c227265717565737465645f6279223a226167656e743a646d222c22737461747573223a2250454e44494e47222c22756e69745f6964223a227531342d30222c22756e69745f757064617465645f736571223a31347d7d7d	0c6704816a9e0d3643e69d554f94808c3cdd0aedd5ab07de774258833fbba033	1f9ee3d779fabcd6f0d4cd3712406ed125806df8d2ebf25704fe734bd35261e8	1077b51f482a80fadf2e23ea77a0c12e19fd25c4937fc9caf84614d012c84b69
47	2026-01-01T00:00:47.000000Z	memory.awmu.review	operator:alice	\\x7b226465636973696f6e223a2272656a656374222c226e6f7465223a226e6f7420796574222c22726571756573745f6964223a22633436227d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b2272657175657374223a7b22617574686f726974795f61745f72657175657374223a2252454c4941424c45222c22636f6e746578745f6964223a2274617665726e222c22637265617465645f736571223a34362c22646563696465645f6279223a226f70657261746f723a616c696365222c22646563696465645f736571223a34372c22726561736f6e223a22222c22726571756573745f6964223a22633436222c227265717565737465645f6279223a226167656e743a646d222c22737461747573223a2252454a4543544544222c22756e69745f6964223a227531342d30222c22756e69745f757064617465645f736571223a31347d2c22756e6974223a7b22617574686f72697479223a2252454c4941424c45222c22617574686f726974795f6365696c696e67223a2252454c4941424c45222c22636f6e666964656e6365223a312e302c22636f6e746578745f6964223a2274617665726e222c22637265617465645f736571223a31342c226c6173745f7265696e666f726365645f7475726e223a302c2270696e6e6564223a66616c73652c2272616e6b223a3530302c227265696e666f7263656d656e745f636f756e74223a302c22736f757263655f696473223a5b226c6564676572225d2c22737461747573223a22414354495645222c22737570657273656465645f6279223a6e756c6c2c2273757065727365646573223a5b5d2c2274657874223a22546865206d696c6c20776865656c207475726e7320616761696e2e222c2274696572223a225741524d222c2274727573745f73636f7265223a6e756c6c2c2274727573745f7369676e616c73223a7b7d2c22756e69745f6964223a227531342d30222c22757064617465645f736571223a31347d7d7d	52946407f9966a3cbda7fe30de3d2e7cc2b63bb2921bef62968b5762702f487c	1077b51f482a80fadf2e23ea77a0c12e19fd25c4937fc9caf84614d012c84b69	f8c66cbb7d9660296c6ed52da65f951d041c9b4c576cba9b1118266a585de341
48	2026-01-01T00:00:48.000000Z	access.grant	operator:alice	\\x7b226361706162696c697479223a2263616e6f6e697a65222c227072696e636970616c223a226167656e743a63757261746f72222c2273636f7065223a2274617665726e227d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b226164646564223a747275652c226772616e74223a7b226361706162696c697479223a2263616e6f6e697a65222c227072696e636970616c223a226167656e743a63757261746f72222c2273636f7065223a2274617665726e227d7d7d	7916abc57bb0a36a58e11799076ab03d42cfa546a2aed4d24ff8c46b3e5dbdac	f8c66cbb7d9660296c6ed52da65f951d041c9b4c576cba9b1118266a585de341	32bf37e1d68f1ac7f6b47914321a9db68ddb698b54a4ca01a41146d25d768c56
49	2026-01-01T00:00:49.000000Z	memory.awmu.canonize	agent:dm	\\x7b22636f6e746578745f6964223a2274617665726e222c22726561736f6e223a22746865206b6565706572222c22756e69745f6964223a227531312d30227d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b2272657175657374223a7b22617574686f726974795f61745f72657175657374223a2252454c4941424c45222c22636f6e746578745f6964223a2274617665726e222c22637265617465645f736571223a34392c22646563696465645f6279223a6e756c6c2c22646563696465645f736571223a6e756c6c2c22726561736f6e223a22746865206b6565706572222c22726571756573745f6964223a22633439222c227265717565737465645f6279223a226167656e743a646d222c22737461747573223a2250454e44494e47222c22756e69745f6964223a227531312d30222c22756e69745f757064617465645f736571223a31317d7d7d	fafb8eaadf2f57cd2a74ec1a9f03ab5a3d58455e7dfd1e54b1be1148777997e5	32bf37e1d68f1ac7f6b47914321a9db68ddb698b54a4ca01a41146d25d768c56	e07b22c3239787243945878948e2f130a025fe60cf7b6fad5edde9fcd33687ee
50	2026-01-01T00:00:50.000000Z	memory.awmu.review	agent:curator	\\x7b226465636973696f6e223a22617070726f7665222c22726571756573745f6964223a22633439227d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b2272657175657374223a7b22617574686f726974795f61745f72657175657374223a2252454c4941424c45222c22636f6e746578745f6964223a2274617665726e222c22637265617465645f736571223a34392c22646563696465645f6279223a226167656e743a63757261746f72222c22646563696465645f736571223a35302c22726561736f6e223a22746865206b6565706572222c22726571756573745f6964223a22633439222c227265717565737465645f6279223a226167656e743a646d222c22737461747573223a22415050524f564544222c22756e69745f6964223a227531312d30222c22756e69745f757064617465645f736571223a31317d2c22756e6974223a7b22617574686f72697479223a2243414e4f4e222c22617574686f726974795f6365696c696e67223a2252454c4941424c45222c22636f6e666964656e6365223a312e302c22636f6e746578745f6964223a2274617665726e222c22637265617465645f736571223a31312c226c6173745f7265696e666f726365645f7475726e223a302c2270696e6e6564223a747275652c2272616e6b223a3530302c227265696e666f7263656d656e745f636f756e74223a302c22736f757263655f696473223a5b226f70657261746f72225d2c22737461747573223a22414354495645222c22737570657273656465645f6279223a6e756c6c2c2273757065727365646573223a5b5d2c2274657874223a22456c617261206b65657073207468652053696c76657220537461672074617665726e2e222c2274696572223a225741524d222c2274727573745f73636f7265223a6e756c6c2c2274727573745f7369676e616c73223a7b7d2c22756e69745f6964223a227531312d30222c22757064617465645f736571223a35307d7d7d	54be415dd36dacf2ca6cb1ce9a79ef69679c16a332c806b22b513a7cfed0a985	e07b22c3239787243945878948e2f130a025fe60cf7b6fad5edde9fcd33687ee	549102fac7052abe1dddcd20bc94c8cabde3965d34d9d2f9acb269e22578f381
51	2026-01-01T00:00:51.000000Z	memory.awmu.canonize	agent:dm	\\x7b22636f6e746578745f6964223a2274617665726e222c22756e69745f6964223a2275392d30227d	awmu_unit_not_active	\\x7b226572726f72223a7b22636f6465223a2261776d755f756e69745f6e6f745f616374697665222c2264657461696c223a22756e6974202775392d30272069732053555045525345444544222c226d657373616765223a2274686520756e6974206973206e6f7420616374697665202861726368697665642c2073757065727365646564206f72206576696374656429227d2c226f6b223a66616c73657d	4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945	549102fac7052abe1dddcd20bc94c8cabde3965d34d9d2f9acb269e22578f381	e04c307ff1025fb82577c5fc641d65606eaf7b3a337e8a3e34d13b27b018738c
52	2026-01-01T00:00:52.000000Z	memory.awmu.canonize	agent:dm	\\x7b22636f6e746578745f6964223a2274617665726e222c22756e69745f6964223a227539393939392d30227d	awmu_unit_not_found	\\x7b226572726f72223a7b22636f6465223a2261776d755f756e69745f6e6f745f666f756e64222c2264657461696c223a226e6f20756e697420277539393939392d302720696e20636f6e74657874202774617665726e27222c226d657373616765223a226e6f20756e6974206f6620746869732069642065786973747320696e2074686520636f6e74657874227d2c226f6b223a66616c73657d	4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945	e04c307ff1025fb82577c5fc641d65606eaf7b3a337e8a3e34d13b27b018738c	9ddd938489c3b1e693566237bddf80321c96957c31ae7a01541f5b116f1f7b8f
53	2026-01-01T00:00:53.000000Z	memory.awmu.pin	agent:dm	\\x7b22636f6e746578745f6964223a2274617665726e222c22756e69745f6964223a227531322d30227d	memory_policy_denied	\\x7b226572726f72223a7b22636f6465223a226d656d6f72795f706f6c6963795f64656e696564222c2264657461696c223a227072696e636970616c20276167656e743a646d27206d6179206e6f742070696e20696e207468697320636f6e74657874222c226d657373616765223a22746865206d656d6f727920706f6c696379207265667573656420746869732063616c6c227d2c226f6b223a66616c73657d	4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945	9ddd938489c3b1e693566237bddf80321c96957c31ae7a01541f5b116f1f7b8f	dd72e59be43fd2aaf904322b6d021cfc87fe68b3de9c63c8189826a4f78fb296
54	2026-01-01T00:00:54.000000Z	memory.awmu.pin	operator:alice	\\x7b22636f6e746578745f6964223a2274617665726e222c22756e69745f6964223a227532382d30227d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22756e6974223a7b22617574686f72697479223a2250524f564953494f4e414c222c22617574686f726974795f6365696c696e67223a22554e52454c4941424c45222c22636f6e666964656e6365223a312e302c22636f6e746578745f6964223a2274617665726e222c22637265617465645f736571223a32382c226c6173745f7265696e666f726365645f7475726e223a302c2270696e6e6564223a747275652c2272616e6b223a3530302c227265696e666f7263656d656e745f636f756e74223a302c22736f757263655f696473223a5b2273797374656d225d2c22737461747573223a22414354495645222c22737570657273656465645f6279223a6e756c6c2c2273757065727365646573223a5b227531332d30225d2c2274657874223a225468652076696c6c6167652077656c6c20697320636c65616e7365642e222c2274696572223a225741524d222c2274727573745f73636f7265223a302e3732303636372c2274727573745f7369676e616c73223a7b22636f72726f626f726174696f6e223a302e332c2265787472616374696f6e5f636f6e666964656e6365223a312e302c2267726170685f636f6e73697374656e6379223a302e363636363636363636363636363636362c22696d706f7274616e6365223a302e382c226e6f76656c7479223a302e33333333333333333333333333333333372c22736f757263655f617574686f72697479223a312e307d2c22756e69745f6964223a227532382d30222c22757064617465645f736571223a35347d7d7d	c379742af40236acd412fedeb6dd7e414373b5794551eefc0e5d0e9fcec8f436	dd72e59be43fd2aaf904322b6d021cfc87fe68b3de9c63c8189826a4f78fb296	0146c357a188730a43e391a7f4b6de3eaf78b993ea7c30c951a0136482d71ff7
55	2026-01-01T00:00:55.000000Z	memory.awmu.pin	operator:alice	\\x7b22636f6e746578745f6964223a2274617665726e222c22756e69745f6964223a227532382d30227d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22756e6974223a7b22617574686f72697479223a2250524f564953494f4e414c222c22617574686f726974795f6365696c696e67223a22554e52454c4941424c45222c22636f6e666964656e6365223a312e302c22636f6e746578745f6964223a2274617665726e222c22637265617465645f736571223a32382c226c6173745f7265696e666f726365645f7475726e223a302c2270696e6e6564223a747275652c2272616e6b223a3530302c227265696e666f7263656d656e745f636f756e74223a302c22736f757263655f696473223a5b2273797374656d225d2c22737461747573223a22414354495645222c22737570657273656465645f6279223a6e756c6c2c2273757065727365646573223a5b227531332d30225d2c2274657874223a225468652076696c6c6167652077656c6c20697320636c65616e7365642e222c2274696572223a225741524d222c2274727573745f73636f7265223a302e3732303636372c2274727573745f7369676e616c73223a7b22636f72726f626f726174696f6e223a302e332c2265787472616374696f6e5f636f6e666964656e6365223a312e302c2267726170685f636f6e73697374656e6379223a302e363636363636363636363636363636362c22696d706f7274616e6365223a302e382c226e6f76656c7479223a302e33333333333333333333333333333333372c22736f757263655f617574686f72697479223a312e307d2c22756e69745f6964223a227532382d30222c22757064617465645f736571223a35347d7d7d	e54c1d37dbfdf28690f0ba334212323eb5a31d36f61e6de0161994439d01d375	0146c357a188730a43e391a7f4b6de3eaf78b993ea7c30c951a0136482d71ff7	d9da07103535839ecc8a2d2cf5b83e704612a59b538a5543b89467dec654e698
56	2026-01-01T00:00:56.000000Z	memory.awmu.unpin	operator:alice	\\x7b22636f6e746578745f6964223a2274617665726e222c22756e69745f6964223a227532382d30227d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22756e6974223a7b22617574686f72697479223a2250524f564953494f4e414c222c22617574686f726974795f6365696c696e67223a22554e52454c4941424c45222c22636f6e666964656e6365223a312e302c22636f6e746578745f6964223a2274617665726e222c22637265617465645f736571223a32382c226c6173745f7265696e666f726365645f7475726e223a302c2270696e6e6564223a66616c73652c2272616e6b223a3530302c227265696e666f7263656d656e745f636f756e74223a302c22736f757263655f696473223a5b2273797374656d225d2c22737461747573223a22414354495645222c22737570657273656465645f6279223a6e756c6c2c2273757065727365646573223a5b227531332d30225d2c2274657874223a225468652076696c6c6167652077656c6c20697320636c65616e7365642e222c2274696572223a225741524d222c2274727573745f73636f7265223a302e3732303636372c2274727573745f7369676e616c73223a7b22636f72726f626f726174696f6e223a302e332c2265787472616374696f6e5f636f6e666964656e6365223a312e302c2267726170685f636f6e73697374656e6379223a302e363636363636363636363636363636362c22696d706f7274616e6365223a302e382c226e6f76656c7479223a302e33333333333333333333333333333333372c22736f757263655f617574686f72697479223a312e307d2c22756e69745f6964223a227532382d30222c22757064617465645f736571223a35367d7d7d	6c6a5b8b9d3b6ee08c58add943e27e9a59309a1487b77d0df94c49aaeb531157	d9da07103535839ecc8a2d2cf5b83e704612a59b538a5543b89467dec654e698	4b873f0e2fd18dfda08b3f83dd67abd439c29213276a2e64356a4f3e656fd885
57	2026-01-01T00:00:57.000000Z	memory.awmu.unpin	operator:alice	\\x7b22636f6e746578745f6964223a2274617665726e222c22756e69745f6964223a2275392d30227d	awmu_unit_not_active	\\x7b226572726f72223a7b22636f6465223a2261776d755f756e69745f6e6f745f616374697665222c2264657461696c223a22756e6974202775392d30272069732053555045525345444544222c226d657373616765223a2274686520756e6974206973206e6f7420616374697665202861726368697665642c2073757065727365646564206f72206576696374656429227d2c226f6b223a66616c73657d	4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945	4b873f0e2fd18dfda08b3f83dd67abd439c29213276a2e64356a4f3e656fd885	6cec1d5ba0c9127389d0f66c63e01bd5cb11ec41fcc31cd50a4a5063576c8385
58	2026-01-01T00:00:58.000000Z	memory.awmu.pin	operator:alice	\\x7b22636f6e746578745f6964223a2274617665726e222c22756e69745f6964223a2275312d30227d	awmu_unit_not_found	\\x7b226572726f72223a7b22636f6465223a2261776d755f756e69745f6e6f745f666f756e64222c2264657461696c223a226e6f20756e6974202775312d302720696e20636f6e74657874202774617665726e27222c226d657373616765223a226e6f20756e6974206f6620746869732069642065786973747320696e2074686520636f6e74657874227d2c226f6b223a66616c73657d	4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945	6cec1d5ba0c9127389d0f66c63e01bd5cb11ec41fcc31cd50a4a5063576c8385	e863d9af2f42b618ccdecf8d756426c799c4989c503228d0ac838937c997b7ab
59	2026-01-01T00:00:59.000000Z	memory.awmu.propose	agent:dm	\\x7b22636f6e666964656e6365223a312e302c22636f6e746578745f6964223a2274617665726e222c22736f75726365223a2273797374656d222c2274657874223a2254686520776f6c66207061636b2063726f7373657320746865207269766572206174206461776e2e227d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22636f6e666c69637473223a5b5d2c2264656d6f746564223a5b5d2c2265766963746564223a5b5d2c226f7574636f6d65223a2270726f6d6f746564222c2273757065727365646564223a5b5d2c227472757374223a7b226365696c696e67223a22554e52454c4941424c45222c2273636f7265223a302e3730383835372c227369676e616c73223a7b22636f72726f626f726174696f6e223a302e332c2265787472616374696f6e5f636f6e666964656e6365223a312e302c2267726170685f636f6e73697374656e6379223a302e3632352c22696d706f7274616e6365223a302e373134323835373134323835373134332c226e6f76656c7479223a302e3337352c22736f757263655f617574686f72697479223a312e307d2c227a6f6e65223a224155544f5f50524f4d4f5445227d2c22756e6974223a7b22617574686f72697479223a2250524f564953494f4e414c222c22617574686f726974795f6365696c696e67223a22554e52454c4941424c45222c22636f6e666964656e6365223a312e302c22636f6e746578745f6964223a2274617665726e222c22637265617465645f736571223a35392c226c6173745f7265696e666f726365645f7475726e223a302c2270696e6e6564223a66616c73652c2272616e6b223a3530302c227265696e666f7263656d656e745f636f756e74223a302c22736f757263655f696473223a5b2273797374656d225d2c22737461747573223a22414354495645222c22737570657273656465645f6279223a6e756c6c2c2273757065727365646573223a5b5d2c2274657874223a2254686520776f6c66207061636b2063726f7373657320746865207269766572206174206461776e2e222c2274696572223a225741524d222c2274727573745f73636f7265223a302e3730383835372c2274727573745f7369676e616c73223a7b22636f72726f626f726174696f6e223a302e332c2265787472616374696f6e5f636f6e666964656e6365223a312e302c2267726170685f636f6e73697374656e6379223a302e3632352c22696d706f7274616e6365223a302e373134323835373134323835373134332c226e6f76656c7479223a302e3337352c22736f757263655f617574686f72697479223a312e307d2c22756e69745f6964223a227535392d30222c22757064617465645f736571223a35397d2c22756e69745f6964223a227535392d30227d7d	f202254c833022d91e364262766829d35405b3e97fca85c407cde1945a658628	e863d9af2f42b618ccdecf8d756426c799c4989c503228d0ac838937c997b7ab	3337579b218de774ecc84a436b385867ce7abbe7e2c7fa3f96109aec3bce2dc8
60	2026-01-01T00:01:00.000000Z	memory.awmu.archive	operator:alice	\\x7b22636f6e746578745f6964223a2274617665726e222c22726561736f6e223a2274686520776f6c766573206c656674222c22756e69745f6964223a227535392d30227d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22756e6974223a7b22617574686f72697479223a2250524f564953494f4e414c222c22617574686f726974795f6365696c696e67223a22554e52454c4941424c45222c22636f6e666964656e6365223a312e302c22636f6e746578745f6964223a2274617665726e222c22637265617465645f736571223a35392c226c6173745f7265696e666f726365645f7475726e223a302c2270696e6e6564223a66616c73652c2272616e6b223a3530302c227265696e666f7263656d656e745f636f756e74223a302c22736f757263655f696473223a5b2273797374656d225d2c22737461747573223a224152434849564544222c22737570657273656465645f6279223a6e756c6c2c2273757065727365646573223a5b5d2c2274657874223a2254686520776f6c66207061636b2063726f7373657320746865207269766572206174206461776e2e222c2274696572223a225741524d222c2274727573745f73636f7265223a302e3730383835372c2274727573745f7369676e616c73223a7b22636f72726f626f726174696f6e223a302e332c2265787472616374696f6e5f636f6e666964656e6365223a312e302c2267726170685f636f6e73697374656e6379223a302e3632352c22696d706f7274616e6365223a302e373134323835373134323835373134332c226e6f76656c7479223a302e3337352c22736f757263655f617574686f72697479223a312e307d2c22756e69745f6964223a227535392d30222c22757064617465645f736571223a36307d7d7d	44ef2e0448da2def60cf99dc14223e140a3ad362569f5f7acd71e0861b5ac6b2	3337579b218de774ecc84a436b385867ce7abbe7e2c7fa3f96109aec3bce2dc8	4d17b0686b2b2cf493e2ee32b5ffe13d57757aa40c8bbbef2d34d2452709ef23
61	2026-01-01T00:01:01.000000Z	memory.awmu.archive	operator:alice	\\x7b22636f6e746578745f6964223a2274617665726e222c22756e69745f6964223a227535392d30227d	awmu_unit_not_active	\\x7b226572726f72223a7b22636f6465223a2261776d755f756e69745f6e6f745f616374697665222c2264657461696c223a22756e697420277535392d3027206973204152434849564544222c226d657373616765223a2274686520756e6974206973206e6f7420616374697665202861726368697665642c2073757065727365646564206f72206576696374656429227d2c226f6b223a66616c73657d	4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945	4d17b0686b2b2cf493e2ee32b5ffe13d57757aa40c8bbbef2d34d2452709ef23	ce4567a56c9f28c0008ec9b807a4a6b5773ca27e1958ce402d17b7edc6926c45
62	2026-01-01T00:01:02.000000Z	memory.awmu.archive	agent:dm	\\x7b22636f6e746578745f6964223a2274617665726e222c22756e69745f6964223a227531342d30227d	memory_policy_denied	\\x7b226572726f72223a7b22636f6465223a226d656d6f72795f706f6c6963795f64656e696564222c2264657461696c223a227072696e636970616c20276167656e743a646d27206d6179206e6f74206172636869766520696e207468697320636f6e74657874222c226d657373616765223a22746865206d656d6f727920706f6c696379207265667573656420746869732063616c6c227d2c226f6b223a66616c73657d	4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945	ce4567a56c9f28c0008ec9b807a4a6b5773ca27e1958ce402d17b7edc6926c45	8d22afaf5174f9e29f37a0bffa547251a7e4260666260807552ab378e6cd6e8b
63	2026-01-01T00:01:03.000000Z	memory.awmu.turn	agent:dm	\\x7b22636f6e746578745f6964223a2274617665726e222c227265696e666f726365223a5b2275392d30225d7d	awmu_unit_not_active	\\x7b226572726f72223a7b22636f6465223a2261776d755f756e69745f6e6f745f616374697665222c2264657461696c223a22756e6974202775392d30272069732053555045525345444544222c226d657373616765223a2274686520756e6974206973206e6f7420616374697665202861726368697665642c2073757065727365646564206f72206576696374656429227d2c226f6b223a66616c73657d	4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945	8d22afaf5174f9e29f37a0bffa547251a7e4260666260807552ab378e6cd6e8b	9f535873dbe11df9c97a9aaee01e2c07e4688e62ccbec75282c51b2f0be4c0f9
102	2026-01-01T00:01:42.000000Z	memory.awmu.turn	agent:dm	\\x7b22636f6e746578745f6964223a2274617665726e222c227265696e666f726365223a5b227533342d30225d7d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22616374697665223a332c2264656361796564223a5b5d2c227265696e666f72636564223a5b7b22636f756e74223a33352c2272616e6b223a3930302c22756e69745f6964223a227533342d30227d5d2c227475726e223a33357d7d	285c9b468e5a9095247f59882c91635647075dd58797a3d87cf2a69f00468bd4	827b8d91c5753971a073f8c63156a12c0aaf08e1e67a161cc25cc8e4eb6f2148	96c700f458a564addb44875c2d1e326e843fbb18258ef17e7f6c64db582f2e2d
64	2026-01-01T00:01:04.000000Z	memory.awmu.turn	agent:dm	\\x7b22636f6e746578745f6964223a2274617665726e222c227265696e666f726365223a5b227534322d39225d7d	awmu_unit_not_found	\\x7b226572726f72223a7b22636f6465223a2261776d755f756e69745f6e6f745f666f756e64222c2264657461696c223a226e6f20756e697420277534322d392720696e20636f6e74657874202774617665726e27222c226d657373616765223a226e6f20756e6974206f6620746869732069642065786973747320696e2074686520636f6e74657874227d2c226f6b223a66616c73657d	4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945	9f535873dbe11df9c97a9aaee01e2c07e4688e62ccbec75282c51b2f0be4c0f9	a8e46bed8147a46cc8b0a3438d89a7d0713feba9ab9c70d4a12de0ab47d0ab4e
65	2026-01-01T00:01:05.000000Z	memory.awmu.turn	agent:dm	\\x7b22636f6e746578745f6964223a226e6f7768657265227d	awmu_context_not_found	\\x7b226572726f72223a7b22636f6465223a2261776d755f636f6e746578745f6e6f745f666f756e64222c2264657461696c223a226e6f20776f726b696e672d6d656d6f727920636f6e7465787420276e6f776865726527222c226d657373616765223a226e6f20776f726b696e672d6d656d6f727920636f6e74657874206f66207468697320696420657869737473227d2c226f6b223a66616c73657d	4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945	a8e46bed8147a46cc8b0a3438d89a7d0713feba9ab9c70d4a12de0ab47d0ab4e	e49c8fcbe5048bf4dc48a4d090581de124015bbc1164fa06e1581763804f6e18
66	2026-01-01T00:01:06.000000Z	memory.awmu.turn	agent:dm	\\x7b22636f6e746578745f6964223a2274617665726e222c227265696e666f726365223a5b227533342d30225d7d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22616374697665223a382c2264656361796564223a5b7b226166746572223a3237322c226172636869766564223a66616c73652c226265666f7265223a3330302c22756e69745f6964223a227531322d30227d2c7b226166746572223a3437312c226172636869766564223a66616c73652c226265666f7265223a3530302c22756e69745f6964223a227531342d30227d2c7b226166746572223a3437312c226172636869766564223a66616c73652c226265666f7265223a3530302c22756e69745f6964223a227532372d30227d2c7b226166746572223a3437312c226172636869766564223a66616c73652c226265666f7265223a3530302c22756e69745f6964223a227532382d30227d2c7b226166746572223a3437312c226172636869766564223a66616c73652c226265666f7265223a3530302c22756e69745f6964223a227532392d30227d5d2c227265696e666f72636564223a5b7b22636f756e74223a312c2272616e6b223a3535302c22756e69745f6964223a227533342d30227d5d2c227475726e223a317d7d	d83f55d021c2d2457747524f1bc43afd5b0e2ceabb0435b7430c0e3054aae354	e49c8fcbe5048bf4dc48a4d090581de124015bbc1164fa06e1581763804f6e18	12f2474a67447f53f25989bd0a69fdab223a1468b3e63739e0a82ffea3c0f003
67	2026-01-01T00:01:07.000000Z	memory.awmu.turn	agent:dm	\\x7b22636f6e746578745f6964223a2274617665726e222c227265696e666f726365223a5b227533342d30225d7d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22616374697665223a382c2264656361796564223a5b7b226166746572223a3234372c226172636869766564223a66616c73652c226265666f7265223a3237322c22756e69745f6964223a227531322d30227d2c7b226166746572223a3434342c226172636869766564223a66616c73652c226265666f7265223a3437312c22756e69745f6964223a227531342d30227d2c7b226166746572223a3434342c226172636869766564223a66616c73652c226265666f7265223a3437312c22756e69745f6964223a227532372d30227d2c7b226166746572223a3434342c226172636869766564223a66616c73652c226265666f7265223a3437312c22756e69745f6964223a227532382d30227d2c7b226166746572223a3434342c226172636869766564223a66616c73652c226265666f7265223a3437312c22756e69745f6964223a227532392d30227d5d2c227265696e666f72636564223a5b7b22636f756e74223a322c2272616e6b223a3630302c22756e69745f6964223a227533342d30227d5d2c227475726e223a327d7d	80b07cad8ef165d0c5fb23575a32255a024d984ca589aa9f20dcf81cf82604f7	12f2474a67447f53f25989bd0a69fdab223a1468b3e63739e0a82ffea3c0f003	f6f89826e8efb21960bbdba92f9f03dde7bb6697d5d2f6a98e3569a31c306050
68	2026-01-01T00:01:08.000000Z	memory.awmu.turn	agent:dm	\\x7b22636f6e746578745f6964223a2274617665726e222c227265696e666f726365223a5b227533342d30225d7d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22616374697665223a382c2264656361796564223a5b7b226166746572223a3232342c226172636869766564223a66616c73652c226265666f7265223a3234372c22756e69745f6964223a227531322d30227d2c7b226166746572223a3431392c226172636869766564223a66616c73652c226265666f7265223a3434342c22756e69745f6964223a227531342d30227d2c7b226166746572223a3431392c226172636869766564223a66616c73652c226265666f7265223a3434342c22756e69745f6964223a227532372d30227d2c7b226166746572223a3431392c226172636869766564223a66616c73652c226265666f7265223a3434342c22756e69745f6964223a227532382d30227d2c7b226166746572223a3431392c226172636869766564223a66616c73652c226265666f7265223a3434342c22756e69745f6964223a227532392d30227d5d2c227265696e666f72636564223a5b7b22636f756e74223a332c2272616e6b223a3635302c22756e69745f6964223a227533342d30227d5d2c227475726e223a337d7d	c2a7d68634fecec1f4cf066029c33a4b65419c18bf73a19282d593669e0032cd	f6f89826e8efb21960bbdba92f9f03dde7bb6697d5d2f6a98e3569a31c306050	1ed01fcff5d7665ad17c1d37b75ee8201c0af2e5ec33bf04daf2ce6dd426fc13
69	2026-01-01T00:01:09.000000Z	memory.awmu.turn	agent:dm	\\x7b22636f6e746578745f6964223a2274617665726e222c227265696e666f726365223a5b227533342d30225d7d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22616374697665223a382c2264656361796564223a5b7b226166746572223a3230332c226172636869766564223a66616c73652c226265666f7265223a3232342c22756e69745f6964223a227531322d30227d2c7b226166746572223a3339352c226172636869766564223a66616c73652c226265666f7265223a3431392c22756e69745f6964223a227531342d30227d2c7b226166746572223a3339352c226172636869766564223a66616c73652c226265666f7265223a3431392c22756e69745f6964223a227532372d30227d2c7b226166746572223a3339352c226172636869766564223a66616c73652c226265666f7265223a3431392c22756e69745f6964223a227532382d30227d2c7b226166746572223a3339352c226172636869766564223a66616c73652c226265666f7265223a3431392c22756e69745f6964223a227532392d30227d5d2c227265696e666f72636564223a5b7b22636f756e74223a342c2272616e6b223a3730302c22756e69745f6964223a227533342d30227d5d2c227475726e223a347d7d	a79d5481577bb0d9edc8fa8838cdbf70f26584cd4f22f89b57d407c49e45ed94	1ed01fcff5d7665ad17c1d37b75ee8201c0af2e5ec33bf04daf2ce6dd426fc13	7ea373277422b0037b40df65ce90d24048179ae35ddf56c53aca5ee3ec2f0819
70	2026-01-01T00:01:10.000000Z	memory.awmu.turn	agent:dm	\\x7b22636f6e746578745f6964223a2274617665726e222c227265696e666f726365223a5b227533342d30222c227532382d30225d7d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22616374697665223a382c2264656361796564223a5b7b226166746572223a3138342c226172636869766564223a66616c73652c226265666f7265223a3230332c22756e69745f6964223a227531322d30227d2c7b226166746572223a3337322c226172636869766564223a66616c73652c226265666f7265223a3339352c22756e69745f6964223a227531342d30227d2c7b226166746572223a3337322c226172636869766564223a66616c73652c226265666f7265223a3339352c22756e69745f6964223a227532372d30227d2c7b226166746572223a3337322c226172636869766564223a66616c73652c226265666f7265223a3339352c22756e69745f6964223a227532392d30227d5d2c227265696e666f72636564223a5b7b22636f756e74223a312c2272616e6b223a3434352c22756e69745f6964223a227532382d30227d2c7b22636f756e74223a352c2272616e6b223a3735302c22756e69745f6964223a227533342d30227d5d2c227475726e223a357d7d	6cc0f70320a7c5b580984ec974339be390df43ff022ebe7cebb69c9a666370b8	7ea373277422b0037b40df65ce90d24048179ae35ddf56c53aca5ee3ec2f0819	a9315681036275cb868954173aeb6a840b92aa341c3c38c91b7e5288cabb83b8
71	2026-01-01T00:01:11.000000Z	memory.awmu.turn	agent:dm	\\x7b22636f6e746578745f6964223a2274617665726e222c227265696e666f726365223a5b227533342d30225d7d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22616374697665223a382c2264656361796564223a5b7b226166746572223a3136372c226172636869766564223a66616c73652c226265666f7265223a3138342c22756e69745f6964223a227531322d30227d2c7b226166746572223a3335312c226172636869766564223a66616c73652c226265666f7265223a3337322c22756e69745f6964223a227531342d30227d2c7b226166746572223a3335312c226172636869766564223a66616c73652c226265666f7265223a3337322c22756e69745f6964223a227532372d30227d2c7b226166746572223a3432302c226172636869766564223a66616c73652c226265666f7265223a3434352c22756e69745f6964223a227532382d30227d2c7b226166746572223a3335312c226172636869766564223a66616c73652c226265666f7265223a3337322c22756e69745f6964223a227532392d30227d5d2c227265696e666f72636564223a5b7b22636f756e74223a362c2272616e6b223a3830302c22756e69745f6964223a227533342d30227d5d2c227475726e223a367d7d	f542fd58de9f05fa1f68a2fa476d41746cd0d276147527a0f7f520633f9d3276	a9315681036275cb868954173aeb6a840b92aa341c3c38c91b7e5288cabb83b8	41dcd230be96e46caecb0d8d1a833f58d9ab9b01d7f6d6350c3a943e1ba680cc
72	2026-01-01T00:01:12.000000Z	memory.awmu.turn	agent:dm	\\x7b22636f6e746578745f6964223a2274617665726e222c227265696e666f726365223a5b227533342d30225d7d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22616374697665223a382c2264656361796564223a5b7b226166746572223a3135312c226172636869766564223a66616c73652c226265666f7265223a3136372c22756e69745f6964223a227531322d30227d2c7b226166746572223a3333312c226172636869766564223a66616c73652c226265666f7265223a3335312c22756e69745f6964223a227531342d30227d2c7b226166746572223a3333312c226172636869766564223a66616c73652c226265666f7265223a3335312c22756e69745f6964223a227532372d30227d2c7b226166746572223a3339362c226172636869766564223a66616c73652c226265666f7265223a3432302c22756e69745f6964223a227532382d30227d2c7b226166746572223a3333312c226172636869766564223a66616c73652c226265666f7265223a3335312c22756e69745f6964223a227532392d30227d5d2c227265696e666f72636564223a5b7b22636f756e74223a372c2272616e6b223a3835302c22756e69745f6964223a227533342d30227d5d2c227475726e223a377d7d	e2bd0b271fd285957083986363c352f163531ceed5628f1691c87fb2cde5d1d9	41dcd230be96e46caecb0d8d1a833f58d9ab9b01d7f6d6350c3a943e1ba680cc	d850ed24fc83700ba4abf482f1c318eba6dad209f4f9aba781656a252ee01d42
73	2026-01-01T00:01:13.000000Z	memory.awmu.turn	agent:dm	\\x7b22636f6e746578745f6964223a2274617665726e222c227265696e666f726365223a5b227533342d30225d7d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22616374697665223a372c2264656361796564223a5b7b226166746572223a3133372c226172636869766564223a747275652c226265666f7265223a3135312c22756e69745f6964223a227531322d30227d2c7b226166746572223a3330302c226172636869766564223a66616c73652c226265666f7265223a3333312c22756e69745f6964223a227531342d30227d2c7b226166746572223a3330302c226172636869766564223a66616c73652c226265666f7265223a3333312c22756e69745f6964223a227532372d30227d2c7b226166746572223a3337332c226172636869766564223a66616c73652c226265666f7265223a3339362c22756e69745f6964223a227532382d30227d2c7b226166746572223a3330302c226172636869766564223a66616c73652c226265666f7265223a3333312c22756e69745f6964223a227532392d30227d5d2c227265696e666f72636564223a5b7b22636f756e74223a382c2272616e6b223a3930302c22756e69745f6964223a227533342d30227d5d2c227475726e223a387d7d	2f48e793f2ff8cf988468995361eda39633c6a014c77056e2ea0fd25d8a3982a	d850ed24fc83700ba4abf482f1c318eba6dad209f4f9aba781656a252ee01d42	23813e678e60b30dde7d3ab54f447fa4aa0958e631ed02de7be281d2281c3e18
74	2026-01-01T00:01:14.000000Z	memory.awmu.turn	agent:dm	\\x7b22636f6e746578745f6964223a2274617665726e222c227265696e666f726365223a5b227533342d30225d7d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22616374697665223a372c2264656361796564223a5b7b226166746572223a3237322c226172636869766564223a66616c73652c226265666f7265223a3330302c22756e69745f6964223a227531342d30227d2c7b226166746572223a3237322c226172636869766564223a66616c73652c226265666f7265223a3330302c22756e69745f6964223a227532372d30227d2c7b226166746572223a3335322c226172636869766564223a66616c73652c226265666f7265223a3337332c22756e69745f6964223a227532382d30227d2c7b226166746572223a3237322c226172636869766564223a66616c73652c226265666f7265223a3330302c22756e69745f6964223a227532392d30227d5d2c227265696e666f72636564223a5b7b22636f756e74223a392c2272616e6b223a3930302c22756e69745f6964223a227533342d30227d5d2c227475726e223a397d7d	42590c0891d18eb3195b0f5297e3a5ea21837e264dae23603b5b570fe44ee880	23813e678e60b30dde7d3ab54f447fa4aa0958e631ed02de7be281d2281c3e18	55994b9608be50b94c5ca2857c7d1cf627fe1250c42b1f373f2edd70eee0ea30
75	2026-01-01T00:01:15.000000Z	memory.awmu.turn	agent:dm	\\x7b22636f6e746578745f6964223a2274617665726e222c227265696e666f726365223a5b227533342d30222c227532382d30225d7d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22616374697665223a372c2264656361796564223a5b7b226166746572223a3234372c226172636869766564223a66616c73652c226265666f7265223a3237322c22756e69745f6964223a227531342d30227d2c7b226166746572223a3234372c226172636869766564223a66616c73652c226265666f7265223a3237322c22756e69745f6964223a227532372d30227d2c7b226166746572223a3234372c226172636869766564223a66616c73652c226265666f7265223a3237322c22756e69745f6964223a227532392d30227d5d2c227265696e666f72636564223a5b7b22636f756e74223a322c2272616e6b223a3430322c22756e69745f6964223a227532382d30227d2c7b22636f756e74223a31302c2272616e6b223a3930302c22756e69745f6964223a227533342d30227d5d2c227475726e223a31307d7d	4bc9ac6f52bd3a87374fda2d6d7c3eed42ba2803e948e5063b0d1b096d0651dd	55994b9608be50b94c5ca2857c7d1cf627fe1250c42b1f373f2edd70eee0ea30	4d56d1ef53ac40d9741500b772db921ed9578b3d1e6b8830e50afd4509057867
76	2026-01-01T00:01:16.000000Z	memory.awmu.turn	agent:dm	\\x7b22636f6e746578745f6964223a2274617665726e222c227265696e666f726365223a5b227533342d30225d7d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22616374697665223a372c2264656361796564223a5b7b226166746572223a3232342c226172636869766564223a66616c73652c226265666f7265223a3234372c22756e69745f6964223a227531342d30227d2c7b226166746572223a3232342c226172636869766564223a66616c73652c226265666f7265223a3234372c22756e69745f6964223a227532372d30227d2c7b226166746572223a3337392c226172636869766564223a66616c73652c226265666f7265223a3430322c22756e69745f6964223a227532382d30227d2c7b226166746572223a3232342c226172636869766564223a66616c73652c226265666f7265223a3234372c22756e69745f6964223a227532392d30227d5d2c227265696e666f72636564223a5b7b22636f756e74223a31312c2272616e6b223a3930302c22756e69745f6964223a227533342d30227d5d2c227475726e223a31317d7d	2988f98e393d6ceff55a7197cba11e0d3e4a0ba0f39c6b62fee2439abbc23470	4d56d1ef53ac40d9741500b772db921ed9578b3d1e6b8830e50afd4509057867	14dd11592d18f8c4950e394b941e8ee4586f5ee8b9d67c9a8b4a9528dbad005b
77	2026-01-01T00:01:17.000000Z	memory.awmu.turn	agent:dm	\\x7b22636f6e746578745f6964223a2274617665726e222c227265696e666f726365223a5b227533342d30225d7d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22616374697665223a372c2264656361796564223a5b7b226166746572223a3230332c226172636869766564223a66616c73652c226265666f7265223a3232342c22756e69745f6964223a227531342d30227d2c7b226166746572223a3230332c226172636869766564223a66616c73652c226265666f7265223a3232342c22756e69745f6964223a227532372d30227d2c7b226166746572223a3335372c226172636869766564223a66616c73652c226265666f7265223a3337392c22756e69745f6964223a227532382d30227d2c7b226166746572223a3230332c226172636869766564223a66616c73652c226265666f7265223a3232342c22756e69745f6964223a227532392d30227d5d2c227265696e666f72636564223a5b7b22636f756e74223a31322c2272616e6b223a3930302c22756e69745f6964223a227533342d30227d5d2c227475726e223a31327d7d	0f88bb2befcd0e6e616b9c8d5685ae1cc9ca41daab28db2cc9d5db60dcd664d0	14dd11592d18f8c4950e394b941e8ee4586f5ee8b9d67c9a8b4a9528dbad005b	f421b0bb149f5199ec4237dd00ab18ae0963335269ea1c804ff28ab501edd412
78	2026-01-01T00:01:18.000000Z	memory.awmu.turn	agent:dm	\\x7b22636f6e746578745f6964223a2274617665726e222c227265696e666f726365223a5b227533342d30225d7d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22616374697665223a372c2264656361796564223a5b7b226166746572223a3138342c226172636869766564223a66616c73652c226265666f7265223a3230332c22756e69745f6964223a227531342d30227d2c7b226166746572223a3138342c226172636869766564223a66616c73652c226265666f7265223a3230332c22756e69745f6964223a227532372d30227d2c7b226166746572223a3333362c226172636869766564223a66616c73652c226265666f7265223a3335372c22756e69745f6964223a227532382d30227d2c7b226166746572223a3138342c226172636869766564223a66616c73652c226265666f7265223a3230332c22756e69745f6964223a227532392d30227d5d2c227265696e666f72636564223a5b7b22636f756e74223a31332c2272616e6b223a3930302c22756e69745f6964223a227533342d30227d5d2c227475726e223a31337d7d	8b9aa73c98475b602a4a19efabe278ae09074f47777ab5b19f4e5d5e311c9d88	f421b0bb149f5199ec4237dd00ab18ae0963335269ea1c804ff28ab501edd412	e158a20be75348d32d86fe1b1a9591eca4b940cb8264bf680b21a75a319c72f2
79	2026-01-01T00:01:19.000000Z	memory.awmu.turn	agent:dm	\\x7b22636f6e746578745f6964223a2274617665726e222c227265696e666f726365223a5b227533342d30225d7d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22616374697665223a372c2264656361796564223a5b7b226166746572223a3136372c226172636869766564223a66616c73652c226265666f7265223a3138342c22756e69745f6964223a227531342d30227d2c7b226166746572223a3136372c226172636869766564223a66616c73652c226265666f7265223a3138342c22756e69745f6964223a227532372d30227d2c7b226166746572223a3330352c226172636869766564223a66616c73652c226265666f7265223a3333362c22756e69745f6964223a227532382d30227d2c7b226166746572223a3136372c226172636869766564223a66616c73652c226265666f7265223a3138342c22756e69745f6964223a227532392d30227d5d2c227265696e666f72636564223a5b7b22636f756e74223a31342c2272616e6b223a3930302c22756e69745f6964223a227533342d30227d5d2c227475726e223a31347d7d	fbf9f6e4e57da50aa40a781caa6c4072178a0b29480edb54285ed99f69090d0e	e158a20be75348d32d86fe1b1a9591eca4b940cb8264bf680b21a75a319c72f2	cdb9d4b782918eedc097c49f4adf7f299f395db0348eac4f9c7044bd9a7370c5
80	2026-01-01T00:01:20.000000Z	memory.awmu.turn	agent:dm	\\x7b22636f6e746578745f6964223a2274617665726e222c227265696e666f726365223a5b227533342d30222c227532382d30225d7d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22616374697665223a372c2264656361796564223a5b7b226166746572223a3135312c226172636869766564223a66616c73652c226265666f7265223a3136372c22756e69745f6964223a227531342d30227d2c7b226166746572223a3135312c226172636869766564223a66616c73652c226265666f7265223a3136372c22756e69745f6964223a227532372d30227d2c7b226166746572223a3135312c226172636869766564223a66616c73652c226265666f7265223a3136372c22756e69745f6964223a227532392d30227d5d2c227265696e666f72636564223a5b7b22636f756e74223a332c2272616e6b223a3335352c22756e69745f6964223a227532382d30227d2c7b22636f756e74223a31352c2272616e6b223a3930302c22756e69745f6964223a227533342d30227d5d2c227475726e223a31357d7d	2a9011be00d2908e74fb8c802cd5478f857e7e2a99d8bfd5cc7e817b35a4db58	cdb9d4b782918eedc097c49f4adf7f299f395db0348eac4f9c7044bd9a7370c5	fb1e491eb82f84ee20d2e9f5e570ba262d90119c002010ee0c921ed62efbaf86
81	2026-01-01T00:01:21.000000Z	memory.awmu.turn	agent:dm	\\x7b22636f6e746578745f6964223a2274617665726e222c227265696e666f726365223a5b227533342d30225d7d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22616374697665223a342c2264656361796564223a5b7b226166746572223a3133372c226172636869766564223a747275652c226265666f7265223a3135312c22756e69745f6964223a227531342d30227d2c7b226166746572223a3133372c226172636869766564223a747275652c226265666f7265223a3135312c22756e69745f6964223a227532372d30227d2c7b226166746572223a3333352c226172636869766564223a66616c73652c226265666f7265223a3335352c22756e69745f6964223a227532382d30227d2c7b226166746572223a3133372c226172636869766564223a747275652c226265666f7265223a3135312c22756e69745f6964223a227532392d30227d5d2c227265696e666f72636564223a5b7b22636f756e74223a31362c2272616e6b223a3930302c22756e69745f6964223a227533342d30227d5d2c227475726e223a31367d7d	ba6d253a81d71fdd5ef99935a2c69dea46e19aedd53621b8dcaa9bed905083e2	fb1e491eb82f84ee20d2e9f5e570ba262d90119c002010ee0c921ed62efbaf86	ff8fa76a871a29a4b5ed1fd453d644ba71faf11c56428ca81429f894b48a8f02
82	2026-01-01T00:01:22.000000Z	memory.awmu.turn	agent:dm	\\x7b22636f6e746578745f6964223a2274617665726e222c227265696e666f726365223a5b227533342d30225d7d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22616374697665223a342c2264656361796564223a5b7b226166746572223a3330342c226172636869766564223a66616c73652c226265666f7265223a3333352c22756e69745f6964223a227532382d30227d5d2c227265696e666f72636564223a5b7b22636f756e74223a31372c2272616e6b223a3930302c22756e69745f6964223a227533342d30227d5d2c227475726e223a31377d7d	c392f0bc07caef8b4f4598f15f95f81bdf4a158e652b9a8bbe793304a1c2ee2c	ff8fa76a871a29a4b5ed1fd453d644ba71faf11c56428ca81429f894b48a8f02	fa6b2ca39f1fa7db2cb37adf11388662997afb1054b209e94f50d643d21c5add
83	2026-01-01T00:01:23.000000Z	memory.awmu.turn	agent:dm	\\x7b22636f6e746578745f6964223a2274617665726e222c227265696e666f726365223a5b227533342d30225d7d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22616374697665223a342c2264656361796564223a5b7b226166746572223a3237362c226172636869766564223a66616c73652c226265666f7265223a3330342c22756e69745f6964223a227532382d30227d5d2c227265696e666f72636564223a5b7b22636f756e74223a31382c2272616e6b223a3930302c22756e69745f6964223a227533342d30227d5d2c227475726e223a31387d7d	f81a9717eb761d39e8cf45387276aac463c9e484c16e7de43204cef391d34c1c	fa6b2ca39f1fa7db2cb37adf11388662997afb1054b209e94f50d643d21c5add	ab4eff0da00cea571fbb0a5396e2fab1df298938bf0c385a4dcd119a9a151a98
84	2026-01-01T00:01:24.000000Z	memory.awmu.turn	agent:dm	\\x7b22636f6e746578745f6964223a2274617665726e222c227265696e666f726365223a5b227533342d30225d7d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22616374697665223a342c2264656361796564223a5b7b226166746572223a3235302c226172636869766564223a66616c73652c226265666f7265223a3237362c22756e69745f6964223a227532382d30227d5d2c227265696e666f72636564223a5b7b22636f756e74223a31392c2272616e6b223a3930302c22756e69745f6964223a227533342d30227d5d2c227475726e223a31397d7d	f15ac5a3a1e84b8de560ad3b8762d873fce4c8fa8192c87ccc244e7177ada8f8	ab4eff0da00cea571fbb0a5396e2fab1df298938bf0c385a4dcd119a9a151a98	5c5b287cf6e716b63117fb01d5e2105370a2cee09249efeb9942f55d8beda6da
85	2026-01-01T00:01:25.000000Z	memory.awmu.turn	agent:dm	\\x7b22636f6e746578745f6964223a2274617665726e222c227265696e666f726365223a5b227533342d30222c227532382d30225d7d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22616374697665223a342c2264656361796564223a5b5d2c227265696e666f72636564223a5b7b22636f756e74223a342c2272616e6b223a3330302c22756e69745f6964223a227532382d30227d2c7b22636f756e74223a32302c2272616e6b223a3930302c22756e69745f6964223a227533342d30227d5d2c227475726e223a32307d7d	6dce17ee54978edfb20bab93171e64960e7f9b1da13f8b1cd0f28b9477b82a97	5c5b287cf6e716b63117fb01d5e2105370a2cee09249efeb9942f55d8beda6da	011dbd26524210cc1d675c55bc0744a46983d0cc5701ad4b5b7646a9617fe992
86	2026-01-01T00:01:26.000000Z	memory.awmu.pressure	agent:dm	\\x7b22636f6e746578745f6964223a2274617665726e227d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22616374697665223a342c22627564676574223a32302c22636f6d70616374696f6e73223a302e302c22636f6e666c69637473223a302e302c22636f6e746578745f6964223a2274617665726e222c2264656d6f74696f6e73223a302e302c2273636f7265223a302e30333537373730383736333939393636342c227475726e223a32302c227574696c69736174696f6e223a302e30383934343237313930393939393135392c2277696e646f77223a7b22636f6d70616374696f6e73223a302c22636f6e666c69637473223a302c2264656d6f74696f6e73223a307d7d7d	4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945	011dbd26524210cc1d675c55bc0744a46983d0cc5701ad4b5b7646a9617fe992	c8f0906d89abc6e46055396378a5667c2e7167a6330f739321f459e122c47a11
103	2026-01-01T00:01:43.000000Z	memory.awmu.turn	agent:dm	\\x7b22636f6e746578745f6964223a2274617665726e222c227265696e666f726365223a5b227533342d30225d7d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22616374697665223a332c2264656361796564223a5b5d2c227265696e666f72636564223a5b7b22636f756e74223a33362c2272616e6b223a3930302c22756e69745f6964223a227533342d30227d5d2c227475726e223a33367d7d	a34b566657381486ff053123649e00a44b86744330f20a2c2de9a496ff464623	96c700f458a564addb44875c2d1e326e843fbb18258ef17e7f6c64db582f2e2d	b3f86443967608057fb61a25769be0beb5a361e5c6582d63c1cbcb6d46434425
87	2026-01-01T00:01:27.000000Z	memory.awmu.assemble	agent:dm	\\x7b22636f6e746578745f6964223a2274617665726e227d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22636f6e746578745f6964223a2274617665726e222c2264726f70706564223a5b5d2c22657374696d617465645f746f6b656e73223a39392c22696e636c75646564223a5b227533342d30222c227531302d30222c227531312d30222c227532382d30225d2c226f7665725f627564676574223a66616c73652c2274657874223a2245737461626c69736865642066616374732028776f726b696e67206d656d6f7279293a5c6e43414e4f4e2066616374733a207468657365204d555354206265207072657365727665643b20636f727265637420616e797468696e67207468617420636f6e7472616469637473207468656d2e5c6e312e20546865206f6c64206b696e6720697320646561642e202861637469766174696f6e2073636f72653a20373030295c6e322e20456c617261206b65657073207468652053696c76657220537461672074617665726e2e202861637469766174696f6e2073636f72653a20353030295c6e554e52454c4941424c452066616374733a2074686573652053484f554c4420626520636f6e736964657265642e5c6e312e204120647261676f6e20736c656570732062656e6561746820746865206d6f756e7461696e2e202861637469766174696f6e2073636f72653a20393030295c6e322e205468652076696c6c6167652077656c6c20697320636c65616e7365642e202861637469766174696f6e2073636f72653a2033303029222c22746f6b656e5f627564676574223a302c227475726e223a32307d7d	4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945	c8f0906d89abc6e46055396378a5667c2e7167a6330f739321f459e122c47a11	c577a81b34e0c9e8389d283aa64261008f9f53317609d2acad2c5e44eccaebd4
88	2026-01-01T00:01:28.000000Z	memory.awmu.turn	agent:dm	\\x7b22636f6e746578745f6964223a2274617665726e222c227265696e666f726365223a5b227533342d30225d7d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22616374697665223a342c2264656361796564223a5b7b226166746572223a3237322c226172636869766564223a66616c73652c226265666f7265223a3330302c22756e69745f6964223a227532382d30227d5d2c227265696e666f72636564223a5b7b22636f756e74223a32312c2272616e6b223a3930302c22756e69745f6964223a227533342d30227d5d2c227475726e223a32317d7d	ab4b3494826e9c6c0b80dec5ec0c51d41dd2b516b9bdf7316a39caba365e0417	c577a81b34e0c9e8389d283aa64261008f9f53317609d2acad2c5e44eccaebd4	4d417ce706b2d810f6dcaa64f9b71b5bb16f433c2d25bc38c9116eb8a0a9c6be
89	2026-01-01T00:01:29.000000Z	memory.awmu.turn	agent:dm	\\x7b22636f6e746578745f6964223a2274617665726e222c227265696e666f726365223a5b227533342d30225d7d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22616374697665223a342c2264656361796564223a5b7b226166746572223a3234372c226172636869766564223a66616c73652c226265666f7265223a3237322c22756e69745f6964223a227532382d30227d5d2c227265696e666f72636564223a5b7b22636f756e74223a32322c2272616e6b223a3930302c22756e69745f6964223a227533342d30227d5d2c227475726e223a32327d7d	990e8a8e5d14095698f5f47d45deebd77cc1157da7a3d8dcad3dbb57dc99a122	4d417ce706b2d810f6dcaa64f9b71b5bb16f433c2d25bc38c9116eb8a0a9c6be	aaf628ef092e5f3cb0fc091df56a359a265d5be818b860fb69f411cd62226afe
90	2026-01-01T00:01:30.000000Z	memory.awmu.turn	agent:dm	\\x7b22636f6e746578745f6964223a2274617665726e222c227265696e666f726365223a5b227533342d30225d7d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22616374697665223a342c2264656361796564223a5b7b226166746572223a3232342c226172636869766564223a66616c73652c226265666f7265223a3234372c22756e69745f6964223a227532382d30227d5d2c227265696e666f72636564223a5b7b22636f756e74223a32332c2272616e6b223a3930302c22756e69745f6964223a227533342d30227d5d2c227475726e223a32337d7d	4f25febfd399a09aa646c6ec3a5cf2a64eadf444e9e42b6678ad5a143436b67d	aaf628ef092e5f3cb0fc091df56a359a265d5be818b860fb69f411cd62226afe	a8f6af612c3ad097f9501f64506c23abbc62383b34d14fc8a94f461140eae7d8
91	2026-01-01T00:01:31.000000Z	memory.awmu.turn	agent:dm	\\x7b22636f6e746578745f6964223a2274617665726e222c227265696e666f726365223a5b227533342d30225d7d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22616374697665223a342c2264656361796564223a5b7b226166746572223a3230332c226172636869766564223a66616c73652c226265666f7265223a3232342c22756e69745f6964223a227532382d30227d5d2c227265696e666f72636564223a5b7b22636f756e74223a32342c2272616e6b223a3930302c22756e69745f6964223a227533342d30227d5d2c227475726e223a32347d7d	21b06341f86eae75f05b44fb3cb0706e592a4da797fd3138d12e5f4fede9085e	a8f6af612c3ad097f9501f64506c23abbc62383b34d14fc8a94f461140eae7d8	3b60ec6909965eb7bd6cc8ac3120d31bc4c5b401d2d1e95252f6d2ecfd65fe5d
92	2026-01-01T00:01:32.000000Z	memory.awmu.turn	agent:dm	\\x7b22636f6e746578745f6964223a2274617665726e222c227265696e666f726365223a5b227533342d30225d7d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22616374697665223a342c2264656361796564223a5b7b226166746572223a3138342c226172636869766564223a66616c73652c226265666f7265223a3230332c22756e69745f6964223a227532382d30227d5d2c227265696e666f72636564223a5b7b22636f756e74223a32352c2272616e6b223a3930302c22756e69745f6964223a227533342d30227d5d2c227475726e223a32357d7d	a15e33725ab9bc399812de98a57bc649c5b6220c5da1a6b5c31714d03fec8a11	3b60ec6909965eb7bd6cc8ac3120d31bc4c5b401d2d1e95252f6d2ecfd65fe5d	fc0f0d126cff8bbfc9920ea014f92f2e3248ecff82c4b643da4d518999c05300
93	2026-01-01T00:01:33.000000Z	memory.awmu.turn	agent:dm	\\x7b22636f6e746578745f6964223a2274617665726e222c227265696e666f726365223a5b227533342d30225d7d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22616374697665223a342c2264656361796564223a5b7b226166746572223a3136372c226172636869766564223a66616c73652c226265666f7265223a3138342c22756e69745f6964223a227532382d30227d5d2c227265696e666f72636564223a5b7b22636f756e74223a32362c2272616e6b223a3930302c22756e69745f6964223a227533342d30227d5d2c227475726e223a32367d7d	27b09a2df226532b2f284c7242dc477608a74ec95d996aeeb43d33bb51bda682	fc0f0d126cff8bbfc9920ea014f92f2e3248ecff82c4b643da4d518999c05300	822b60c8a410142d3c22919345203d9ee9c8f91d3eae79b7ac815574295625ef
94	2026-01-01T00:01:34.000000Z	memory.awmu.turn	agent:dm	\\x7b22636f6e746578745f6964223a2274617665726e222c227265696e666f726365223a5b227533342d30225d7d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22616374697665223a342c2264656361796564223a5b7b226166746572223a3135312c226172636869766564223a66616c73652c226265666f7265223a3136372c22756e69745f6964223a227532382d30227d5d2c227265696e666f72636564223a5b7b22636f756e74223a32372c2272616e6b223a3930302c22756e69745f6964223a227533342d30227d5d2c227475726e223a32377d7d	b9cf107184402347b6490cf4c02d0537ef940f1e592e7de6065cfdbb09c3acaa	822b60c8a410142d3c22919345203d9ee9c8f91d3eae79b7ac815574295625ef	9d174aacf100044e3f7ab030b909fc319099edc086f05427c51e926b93e43b01
95	2026-01-01T00:01:35.000000Z	memory.awmu.turn	agent:dm	\\x7b22636f6e746578745f6964223a2274617665726e222c227265696e666f726365223a5b227533342d30225d7d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22616374697665223a332c2264656361796564223a5b7b226166746572223a3133372c226172636869766564223a747275652c226265666f7265223a3135312c22756e69745f6964223a227532382d30227d5d2c227265696e666f72636564223a5b7b22636f756e74223a32382c2272616e6b223a3930302c22756e69745f6964223a227533342d30227d5d2c227475726e223a32387d7d	361b1b478a7939fd3b84a11079963b39661ba5c468a5660dfae081e8b3a9de7e	9d174aacf100044e3f7ab030b909fc319099edc086f05427c51e926b93e43b01	4c9cb29d4797b2f22dac20bf210310b24a40c6494e7548ea423373cd500c04b9
96	2026-01-01T00:01:36.000000Z	memory.awmu.turn	agent:dm	\\x7b22636f6e746578745f6964223a2274617665726e222c227265696e666f726365223a5b227533342d30225d7d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22616374697665223a332c2264656361796564223a5b5d2c227265696e666f72636564223a5b7b22636f756e74223a32392c2272616e6b223a3930302c22756e69745f6964223a227533342d30227d5d2c227475726e223a32397d7d	9f8758b0ab7a177ac8a855baaca69673768f7faca2826f45040764fb4d0e7227	4c9cb29d4797b2f22dac20bf210310b24a40c6494e7548ea423373cd500c04b9	2b6fdc808cb73b956bf0f56a763477a5074ee4540891d633a2054afe724698b0
97	2026-01-01T00:01:37.000000Z	memory.awmu.turn	agent:dm	\\x7b22636f6e746578745f6964223a2274617665726e222c227265696e666f726365223a5b227533342d30225d7d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22616374697665223a332c2264656361796564223a5b5d2c227265696e666f72636564223a5b7b22636f756e74223a33302c2272616e6b223a3930302c22756e69745f6964223a227533342d30227d5d2c227475726e223a33307d7d	9622276a5abe397c6b9b14f38e8c0c9d9bd5ecf8345bde4b70f0d299afc7fe1a	2b6fdc808cb73b956bf0f56a763477a5074ee4540891d633a2054afe724698b0	6e008f765d4f6de77aa5d924dbf9e9dcdfce4c99071e502033c1992b49cb89e5
98	2026-01-01T00:01:38.000000Z	memory.awmu.turn	agent:dm	\\x7b22636f6e746578745f6964223a2274617665726e222c227265696e666f726365223a5b227533342d30225d7d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22616374697665223a332c2264656361796564223a5b5d2c227265696e666f72636564223a5b7b22636f756e74223a33312c2272616e6b223a3930302c22756e69745f6964223a227533342d30227d5d2c227475726e223a33317d7d	92ba4b4618761c16b16aa4169ba94e4e62855e67f47d952ca72a7eb0a24d8392	6e008f765d4f6de77aa5d924dbf9e9dcdfce4c99071e502033c1992b49cb89e5	195355a10a52dbcdf1a44123cf8daa7132cbd6b2640c75ce3b51b3e247fe6d37
99	2026-01-01T00:01:39.000000Z	memory.awmu.turn	agent:dm	\\x7b22636f6e746578745f6964223a2274617665726e222c227265696e666f726365223a5b227533342d30225d7d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22616374697665223a332c2264656361796564223a5b5d2c227265696e666f72636564223a5b7b22636f756e74223a33322c2272616e6b223a3930302c22756e69745f6964223a227533342d30227d5d2c227475726e223a33327d7d	43972b3cdb52505889d4c225dce28a877dcb2746d830e85d9d03be965b34afc7	195355a10a52dbcdf1a44123cf8daa7132cbd6b2640c75ce3b51b3e247fe6d37	babe51c9d99cdd57f05d3f3477777a66c8a9e644cccdea9db8bd1f15a14e2655
100	2026-01-01T00:01:40.000000Z	memory.awmu.turn	agent:dm	\\x7b22636f6e746578745f6964223a2274617665726e222c227265696e666f726365223a5b227533342d30225d7d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22616374697665223a332c2264656361796564223a5b5d2c227265696e666f72636564223a5b7b22636f756e74223a33332c2272616e6b223a3930302c22756e69745f6964223a227533342d30227d5d2c227475726e223a33337d7d	295e1427b88be567cdb6d5999602042fc544a11360f909848a019812aeca2091	babe51c9d99cdd57f05d3f3477777a66c8a9e644cccdea9db8bd1f15a14e2655	9ab29dd3d64334c77b297ec0b2646279dfc6032651c969c99bccbd66016ce73e
101	2026-01-01T00:01:41.000000Z	memory.awmu.turn	agent:dm	\\x7b22636f6e746578745f6964223a2274617665726e222c227265696e666f726365223a5b227533342d30225d7d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22616374697665223a332c2264656361796564223a5b5d2c227265696e666f72636564223a5b7b22636f756e74223a33342c2272616e6b223a3930302c22756e69745f6964223a227533342d30227d5d2c227475726e223a33347d7d	70d40960a0dcae9251971f0f6eb86537d4620ac78258fdad7a40037f3cc03e7d	9ab29dd3d64334c77b297ec0b2646279dfc6032651c969c99bccbd66016ce73e	827b8d91c5753971a073f8c63156a12c0aaf08e1e67a161cc25cc8e4eb6f2148
104	2026-01-01T00:01:44.000000Z	memory.awmu.turn	agent:dm	\\x7b22636f6e746578745f6964223a2274617665726e222c227265696e666f726365223a5b227533342d30225d7d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22616374697665223a332c2264656361796564223a5b5d2c227265696e666f72636564223a5b7b22636f756e74223a33372c2272616e6b223a3930302c22756e69745f6964223a227533342d30227d5d2c227475726e223a33377d7d	c006fc384d9c7d2f9321da3b62067c0600771f7ae7bc5490f77e29550123e43e	b3f86443967608057fb61a25769be0beb5a361e5c6582d63c1cbcb6d46434425	e2fe12fd9d010edce198edca47476ac401907c5c4ab6792c38e463a80c23bade
105	2026-01-01T00:01:45.000000Z	memory.awmu.turn	agent:dm	\\x7b22636f6e746578745f6964223a2274617665726e222c227265696e666f726365223a5b227533342d30225d7d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22616374697665223a332c2264656361796564223a5b5d2c227265696e666f72636564223a5b7b22636f756e74223a33382c2272616e6b223a3930302c22756e69745f6964223a227533342d30227d5d2c227475726e223a33387d7d	ec283dac7bd351d1c75174f6b953336f72f55e40bbb7431b1aae60e98f59afa0	e2fe12fd9d010edce198edca47476ac401907c5c4ab6792c38e463a80c23bade	26417c94347afae5bc24ccce18b05ffee9716bc03df8a37551b42261f8ac7795
106	2026-01-01T00:01:46.000000Z	memory.awmu.turn	agent:dm	\\x7b22636f6e746578745f6964223a2274617665726e222c227265696e666f726365223a5b227533342d30225d7d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22616374697665223a332c2264656361796564223a5b5d2c227265696e666f72636564223a5b7b22636f756e74223a33392c2272616e6b223a3930302c22756e69745f6964223a227533342d30227d5d2c227475726e223a33397d7d	18e2dfe74d4fea5fc6c6a5ed7aeafe9e53468e6c22f88a4b9160e68e746f8a47	26417c94347afae5bc24ccce18b05ffee9716bc03df8a37551b42261f8ac7795	64cf3baf9d3b52c3b4908bff4cc400b1d128ad96166ccbb0d4dd3a982e2eec1c
107	2026-01-01T00:01:47.000000Z	memory.awmu.turn	agent:dm	\\x7b22636f6e746578745f6964223a2274617665726e222c227265696e666f726365223a5b227533342d30225d7d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22616374697665223a332c2264656361796564223a5b5d2c227265696e666f72636564223a5b7b22636f756e74223a34302c2272616e6b223a3930302c22756e69745f6964223a227533342d30227d5d2c227475726e223a34307d7d	01d87d06263d8d00826a3a8ca108e6bb470fc10f7b191e0bdd925476cc75b64a	64cf3baf9d3b52c3b4908bff4cc400b1d128ad96166ccbb0d4dd3a982e2eec1c	ce51e431a73b95cb248b461af9c8da5b5db2a6e8c8b2a2ff52e95e7fabc945c7
108	2026-01-01T00:01:48.000000Z	memory.awmu.list	agent:dm	\\x7b22636f6e746578745f6964223a2274617665726e222c22737461747573223a22616c6c227d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b2263616e6f6e5f7265717565737473223a5b5d2c22636f6e746578745f6964223a2274617665726e222c22636f756e74223a31312c227265766965775f7175657565223a5b5d2c227475726e223a34302c22756e697473223a5b7b22617574686f72697479223a22554e52454c4941424c45222c22617574686f726974795f6365696c696e67223a22554e52454c4941424c45222c22636f6e666964656e6365223a302e392c22636f6e746578745f6964223a2274617665726e222c22637265617465645f736571223a33342c226c6173745f7265696e666f726365645f7475726e223a34302c2270696e6e6564223a66616c73652c2272616e6b223a3930302c227265696e666f7263656d656e745f636f756e74223a34302c22736f757263655f696473223a5b22646d225d2c22737461747573223a22414354495645222c22737570657273656465645f6279223a6e756c6c2c2273757065727365646573223a5b5d2c2274657874223a224120647261676f6e20736c656570732062656e6561746820746865206d6f756e7461696e2e222c2274696572223a22484f54222c2274727573745f73636f7265223a302e3537342c2274727573745f7369676e616c73223a7b22636f72726f626f726174696f6e223a302e332c2265787472616374696f6e5f636f6e666964656e6365223a302e392c2267726170685f636f6e73697374656e6379223a302e322c22696d706f7274616e6365223a302e333333333333333333333333333333332c226e6f76656c7479223a302e382c22736f757263655f617574686f72697479223a302e397d2c22756e69745f6964223a227533342d30222c22757064617465645f736571223a3130377d2c7b22617574686f72697479223a2243414e4f4e222c22617574686f726974795f6365696c696e67223a2252454c4941424c45222c22636f6e666964656e6365223a312e302c22636f6e746578745f6964223a2274617665726e222c22637265617465645f736571223a31302c226c6173745f7265696e666f726365645f7475726e223a302c2270696e6e6564223a66616c73652c2272616e6b223a3730302c227265696e666f7263656d656e745f636f756e74223a302c22736f757263655f696473223a5b226f70657261746f72225d2c22737461747573223a22414354495645222c22737570657273656465645f6279223a6e756c6c2c2273757065727365646573223a5b5d2c2274657874223a22546865206f6c64206b696e6720697320646561642e222c2274696572223a22484f54222c2274727573745f73636f7265223a6e756c6c2c2274727573745f7369676e616c73223a7b7d2c22756e69745f6964223a227531302d30222c22757064617465645f736571223a34337d2c7b22617574686f72697479223a2250524f564953494f4e414c222c22617574686f726974795f6365696c696e67223a22554e52454c4941424c45222c22636f6e666964656e6365223a312e302c22636f6e746578745f6964223a2274617665726e222c22637265617465645f736571223a392c226c6173745f7265696e666f726365645f7475726e223a302c2270696e6e6564223a66616c73652c2272616e6b223a3530302c227265696e666f7263656d656e745f636f756e74223a302c22736f757263655f696473223a5b2273797374656d225d2c22737461747573223a2253555045525345444544222c22737570657273656465645f6279223a227532372d30222c2273757065727365646573223a5b5d2c2274657874223a22412073746f726d2067617468657273206f76657220746865207365612e222c2274696572223a225741524d222c2274727573745f73636f7265223a302e3637362c2274727573745f7369676e616c73223a7b22636f72726f626f726174696f6e223a302e332c2265787472616374696f6e5f636f6e666964656e6365223a312e302c2267726170685f636f6e73697374656e6379223a302e352c22696d706f7274616e6365223a302e302c226e6f76656c7479223a312e302c22736f757263655f617574686f72697479223a312e307d2c22756e69745f6964223a2275392d30222c22757064617465645f736571223a32377d2c7b22617574686f72697479223a2243414e4f4e222c22617574686f726974795f6365696c696e67223a2252454c4941424c45222c22636f6e666964656e6365223a312e302c22636f6e746578745f6964223a2274617665726e222c22637265617465645f736571223a31312c226c6173745f7265696e666f726365645f7475726e223a302c2270696e6e6564223a747275652c2272616e6b223a3530302c227265696e666f7263656d656e745f636f756e74223a302c22736f757263655f696473223a5b226f70657261746f72225d2c22737461747573223a22414354495645222c22737570657273656465645f6279223a6e756c6c2c2273757065727365646573223a5b5d2c2274657874223a22456c617261206b65657073207468652053696c76657220537461672074617665726e2e222c2274696572223a225741524d222c2274727573745f73636f7265223a6e756c6c2c2274727573745f7369676e616c73223a7b7d2c22756e69745f6964223a227531312d30222c22757064617465645f736571223a35307d2c7b22617574686f72697479223a2250524f564953494f4e414c222c22617574686f726974795f6365696c696e67223a22554e52454c4941424c45222c22636f6e666964656e6365223a312e302c22636f6e746578745f6964223a2274617665726e222c22637265617465645f736571223a35392c226c6173745f7265696e666f726365645f7475726e223a302c2270696e6e6564223a66616c73652c2272616e6b223a3530302c227265696e666f7263656d656e745f636f756e74223a302c22736f757263655f696473223a5b2273797374656d225d2c22737461747573223a224152434849564544222c22737570657273656465645f6279223a6e756c6c2c2273757065727365646573223a5b5d2c2274657874223a2254686520776f6c66207061636b2063726f7373657320746865207269766572206174206461776e2e222c2274696572223a225741524d222c2274727573745f73636f7265223a302e3730383835372c2274727573745f7369676e616c73223a7b22636f72726f626f726174696f6e223a302e332c2265787472616374696f6e5f636f6e666964656e6365223a312e302c2267726170685f636f6e73697374656e6379223a302e3632352c22696d706f7274616e6365223a302e373134323835373134323835373134332c226e6f76656c7479223a302e3337352c22736f757263655f617574686f72697479223a312e307d2c22756e69745f6964223a227535392d30222c22757064617465645f736571223a36307d2c7b22617574686f72697479223a22554e52454c4941424c45222c22617574686f726974795f6365696c696e67223a2252454c4941424c45222c22636f6e666964656e6365223a312e302c22636f6e746578745f6964223a2274617665726e222c22637265617465645f736571223a31332c226c6173745f7265696e666f726365645f7475726e223a302c2270696e6e6564223a66616c73652c2272616e6b223a3435302c227265696e666f7263656d656e745f636f756e74223a302c22736f757263655f696473223a5b226f70657261746f72225d2c22737461747573223a2253555045525345444544222c22737570657273656465645f6279223a227532382d30222c2273757065727365646573223a5b5d2c2274657874223a225468652076696c6c6167652077656c6c20697320706f69736f6e65642e222c2274696572223a225741524d222c2274727573745f73636f7265223a6e756c6c2c2274727573745f7369676e616c73223a7b7d2c22756e69745f6964223a227531332d30222c22757064617465645f736571223a32387d2c7b22617574686f72697479223a2250524f564953494f4e414c222c22617574686f726974795f6365696c696e67223a2252454c4941424c45222c22636f6e666964656e6365223a312e302c22636f6e746578745f6964223a2274617665726e222c22637265617465645f736571223a31322c226c6173745f7265696e666f726365645f7475726e223a302c2270696e6e6564223a66616c73652c2272616e6b223a3133372c227265696e666f7263656d656e745f636f756e74223a302c22736f757263655f696473223a5b226f70657261746f72225d2c22737461747573223a224152434849564544222c22737570657273656465645f6279223a6e756c6c2c2273757065727365646573223a5b5d2c2274657874223a225468652066657272792063726f7373657320746865207269766572206174206461776e2e222c2274696572223a22434f4c44222c2274727573745f73636f7265223a6e756c6c2c2274727573745f7369676e616c73223a7b7d2c22756e69745f6964223a227531322d30222c22757064617465645f736571223a37337d2c7b22617574686f72697479223a2250524f564953494f4e414c222c22617574686f726974795f6365696c696e67223a2252454c4941424c45222c22636f6e666964656e6365223a312e302c22636f6e746578745f6964223a2274617665726e222c22637265617465645f736571223a31342c226c6173745f7265696e666f726365645f7475726e223a302c2270696e6e6564223a66616c73652c2272616e6b223a3133372c227265696e666f7263656d656e745f636f756e74223a302c22736f757263655f696473223a5b226c6564676572225d2c22737461747573223a224152434849564544222c22737570657273656465645f6279223a6e756c6c2c2273757065727365646573223a5b5d2c2274657874223a22546865206d696c6c20776865656c207475726e7320616761696e2e222c2274696572223a22434f4c44222c2274727573745f73636f7265223a6e756c6c2c2274727573745f7369676e616c73223a7b7d2c22756e69745f6964223a227531342d30222c22757064617465645f736571223a38317d2c7b22617574686f72697479223a2250524f564953494f4e414c222c22617574686f726974795f6365696c696e67223a22554e52454c4941424c45222c22636f6e666964656e6365223a312e302c22636f6e746578745f6964223a2274617665726e222c22637265617465645f736571223a32372c226c6173745f7265696e666f726365645f7475726e223a302c2270696e6e6564223a66616c73652c2272616e6b223a3133372c227265696e666f7263656d656e745f636f756e74223a302c22736f757263655f696473223a5b2273797374656d225d2c22737461747573223a224152434849564544222c22737570657273656465645f6279223a6e756c6c2c2273757065727365646573223a5b2275392d30225d2c2274657874223a225468652073746f726d206f7665722074686520736561206861732063616c6d65642e222c2274696572223a22434f4c44222c2274727573745f73636f7265223a302e3638362c2274727573745f7369676e616c73223a7b22636f72726f626f726174696f6e223a302e332c2265787472616374696f6e5f636f6e666964656e6365223a312e302c2267726170685f636f6e73697374656e6379223a302e352c22696d706f7274616e6365223a302e363636363636363636363636363636362c226e6f76656c7479223a302e352c22736f757263655f617574686f72697479223a312e307d2c22756e69745f6964223a227532372d30222c22757064617465645f736571223a38317d2c7b22617574686f72697479223a2250524f564953494f4e414c222c22617574686f726974795f6365696c696e67223a22554e52454c4941424c45222c22636f6e666964656e6365223a312e302c22636f6e746578745f6964223a2274617665726e222c22637265617465645f736571223a32382c226c6173745f7265696e666f726365645f7475726e223a32302c2270696e6e6564223a66616c73652c2272616e6b223a3133372c227265696e666f7263656d656e745f636f756e74223a342c22736f757263655f696473223a5b2273797374656d225d2c22737461747573223a224152434849564544222c22737570657273656465645f6279223a6e756c6c2c2273757065727365646573223a5b227531332d30225d2c2274657874223a225468652076696c6c6167652077656c6c20697320636c65616e7365642e222c2274696572223a22434f4c44222c2274727573745f73636f7265223a302e3732303636372c2274727573745f7369676e616c73223a7b22636f72726f626f726174696f6e223a302e332c2265787472616374696f6e5f636f6e666964656e6365223a312e302c2267726170685f636f6e73697374656e6379223a302e363636363636363636363636363636362c22696d706f7274616e6365223a302e382c226e6f76656c7479223a302e33333333333333333333333333333333372c22736f757263655f617574686f72697479223a312e307d2c22756e69745f6964223a227532382d30222c22757064617465645f736571223a39357d2c7b22617574686f72697479223a2250524f564953494f4e414c222c22617574686f726974795f6365696c696e67223a22554e52454c4941424c45222c22636f6e666964656e6365223a312e302c22636f6e746578745f6964223a2274617665726e222c22637265617465645f736571223a32392c226c6173745f7265696e666f726365645f7475726e223a302c2270696e6e6564223a66616c73652c2272616e6b223a3133372c227265696e666f7263656d656e745f636f756e74223a302c22736f757263655f696473223a5b2273797374656d225d2c22737461747573223a224152434849564544222c22737570657273656465645f6279223a6e756c6c2c2273757065727365646573223a5b5d2c2274657874223a22546865206d696c6c20776865656c207475726e7320736c6f77657220696e2077696e7465722e222c2274696572223a22434f4c44222c2274727573745f73636f7265223a302e3638303238362c2274727573745f7369676e616c73223a7b22636f72726f626f726174696f6e223a302e332c2265787472616374696f6e5f636f6e666964656e6365223a312e302c2267726170685f636f6e73697374656e6379223a302e352c22696d706f7274616e6365223a302e353731343238353731343238353731342c226e6f76656c7479223a302e352c22736f757263655f617574686f72697479223a312e307d2c22756e69745f6964223a227532392d30222c22757064617465645f736571223a38317d5d7d7d	4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945	ce51e431a73b95cb248b461af9c8da5b5db2a6e8c8b2a2ff52e95e7fabc945c7	867a0d2257780e9dccb212181cb79aa17c67f4baada51199e65911067349fcae
109	2026-01-01T00:01:49.000000Z	memory.awmu.events	agent:dm	\\x7b22636f6e746578745f6964223a2274617665726e222c226b696e6473223a5b226172636869766564225d7d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22636f6e746578745f6964223a2274617665726e222c226576656e7473223a5b7b22636f6e746578745f6964223a2274617665726e222c2264657461696c223a7b226279223a226f70657261746f723a616c696365222c22726561736f6e223a2274686520776f6c766573206c656674227d2c22696e646578223a302c226b696e64223a226172636869766564222c22736571223a36302c227475726e223a302c22756e69745f6964223a227535392d30227d2c7b22636f6e746578745f6964223a2274617665726e222c2264657461696c223a7b2272616e6b223a3133372c22726561736f6e223a226465636179227d2c22696e646578223a322c226b696e64223a226172636869766564222c22736571223a37332c227475726e223a382c22756e69745f6964223a227531322d30227d2c7b22636f6e746578745f6964223a2274617665726e222c2264657461696c223a7b2272616e6b223a3133372c22726561736f6e223a226465636179227d2c22696e646578223a322c226b696e64223a226172636869766564222c22736571223a38312c227475726e223a31362c22756e69745f6964223a227531342d30227d2c7b22636f6e746578745f6964223a2274617665726e222c2264657461696c223a7b2272616e6b223a3133372c22726561736f6e223a226465636179227d2c22696e646578223a342c226b696e64223a226172636869766564222c22736571223a38312c227475726e223a31362c22756e69745f6964223a227532372d30227d2c7b22636f6e746578745f6964223a2274617665726e222c2264657461696c223a7b2272616e6b223a3133372c22726561736f6e223a226465636179227d2c22696e646578223a372c226b696e64223a226172636869766564222c22736571223a38312c227475726e223a31362c22756e69745f6964223a227532392d30227d2c7b22636f6e746578745f6964223a2274617665726e222c2264657461696c223a7b2272616e6b223a3133372c22726561736f6e223a226465636179227d2c22696e646578223a322c226b696e64223a226172636869766564222c22736571223a39352c227475726e223a32382c22756e69745f6964223a227532382d30227d5d7d7d	4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945	867a0d2257780e9dccb212181cb79aa17c67f4baada51199e65911067349fcae	2326a200e63e41cff79c83cabe9c7449f1dba6834e15623540ec304af8c417be
110	2026-01-01T00:01:50.000000Z	memory.awmu.events	agent:dm	\\x7b22636f6e746578745f6964223a2274617665726e222c226b696e6473223a5b22617574686f726974795f6368616e676564225d7d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22636f6e746578745f6964223a2274617665726e222c226576656e7473223a5b7b22636f6e746578745f6964223a2274617665726e222c2264657461696c223a7b226166746572223a2243414e4f4e222c226265666f7265223a2252454c4941424c45222c226279223a226f70657261746f723a616c696365222c22646972656374696f6e223a227570222c22726561736f6e223a2263616e6f6e697a6174696f6e222c22726571756573745f6964223a22633430227d2c22696e646578223a312c226b696e64223a22617574686f726974795f6368616e676564222c22736571223a34332c227475726e223a302c22756e69745f6964223a227531302d30227d2c7b22636f6e746578745f6964223a2274617665726e222c2264657461696c223a7b226166746572223a2243414e4f4e222c226265666f7265223a2252454c4941424c45222c226279223a226167656e743a63757261746f72222c22646972656374696f6e223a227570222c22726561736f6e223a2263616e6f6e697a6174696f6e222c22726571756573745f6964223a22633439227d2c22696e646578223a312c226b696e64223a22617574686f726974795f6368616e676564222c22736571223a35302c227475726e223a302c22756e69745f6964223a227531312d30227d2c7b22636f6e746578745f6964223a2274617665726e222c2264657461696c223a7b226166746572223a22554e52454c4941424c45222c226265666f7265223a2250524f564953494f4e414c222c22636f756e74223a332c22646972656374696f6e223a227570222c22726561736f6e223a227265696e666f7263656d656e74227d2c22696e646578223a312c226b696e64223a22617574686f726974795f6368616e676564222c22736571223a36382c227475726e223a332c22756e69745f6964223a227533342d30227d2c7b22636f6e746578745f6964223a2274617665726e222c2264657461696c223a7b226166746572223a22554e52454c4941424c45222c226265666f7265223a2252454c4941424c45222c22646972656374696f6e223a22646f776e222c2272616e6b223a3339352c22726561736f6e223a2272616e6b227d2c22696e646578223a332c226b696e64223a22617574686f726974795f6368616e676564222c22736571223a36392c227475726e223a342c22756e69745f6964223a227531342d30227d2c7b22636f6e746578745f6964223a2274617665726e222c2264657461696c223a7b226166746572223a2250524f564953494f4e414c222c226265666f7265223a22554e52454c4941424c45222c22646972656374696f6e223a22646f776e222c2272616e6b223a3138342c22726561736f6e223a2272616e6b227d2c22696e646578223a332c226b696e64223a22617574686f726974795f6368616e676564222c22736571223a37302c227475726e223a352c22756e69745f6964223a227531322d30227d2c7b22636f6e746578745f6964223a2274617665726e222c2264657461696c223a7b226166746572223a2250524f564953494f4e414c222c226265666f7265223a22554e52454c4941424c45222c22646972656374696f6e223a22646f776e222c2272616e6b223a3138342c22726561736f6e223a2272616e6b227d2c22696e646578223a322c226b696e64223a22617574686f726974795f6368616e676564222c22736571223a37382c227475726e223a31332c22756e69745f6964223a227531342d30227d2c7b22636f6e746578745f6964223a2274617665726e222c2264657461696c223a7b226166746572223a22554e52454c4941424c45222c226265666f7265223a2250524f564953494f4e414c222c22636f756e74223a332c22646972656374696f6e223a227570222c22726561736f6e223a227265696e666f7263656d656e74227d2c22696e646578223a312c226b696e64223a22617574686f726974795f6368616e676564222c22736571223a38302c227475726e223a31352c22756e69745f6964223a227532382d30227d2c7b22636f6e746578745f6964223a2274617665726e222c2264657461696c223a7b226166746572223a2250524f564953494f4e414c222c226265666f7265223a22554e52454c4941424c45222c22646972656374696f6e223a22646f776e222c2272616e6b223a3138342c22726561736f6e223a2272616e6b227d2c22696e646578223a322c226b696e64223a22617574686f726974795f6368616e676564222c22736571223a39322c227475726e223a32352c22756e69745f6964223a227532382d30227d5d7d7d	4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945	2326a200e63e41cff79c83cabe9c7449f1dba6834e15623540ec304af8c417be	b19e613c8ef3d235c51912b491a5e3ff37341788c2c644432d2ba828b14dfdb4
111	2026-01-01T00:01:51.000000Z	memory.awmu.seed	operator:alice	\\x7b22636f6e746578745f6964223a227661756c74222c2272616e6b223a3830302c2274657874223a22546865206e6f7274682067617465206973207365616c65642e227d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b2265766963746564223a5b5d2c226f7574636f6d65223a22736565646564222c22756e6974223a7b22617574686f72697479223a2252454c4941424c45222c22617574686f726974795f6365696c696e67223a2252454c4941424c45222c22636f6e666964656e6365223a312e302c22636f6e746578745f6964223a227661756c74222c22637265617465645f736571223a3131312c226c6173745f7265696e666f726365645f7475726e223a302c2270696e6e6564223a66616c73652c2272616e6b223a3830302c227265696e666f7263656d656e745f636f756e74223a302c22736f757263655f696473223a5b226f70657261746f72225d2c22737461747573223a22414354495645222c22737570657273656465645f6279223a6e756c6c2c2273757065727365646573223a5b5d2c2274657874223a22546865206e6f7274682067617465206973207365616c65642e222c2274696572223a22484f54222c2274727573745f73636f7265223a6e756c6c2c2274727573745f7369676e616c73223a7b7d2c22756e69745f6964223a22753131312d30222c22757064617465645f736571223a3131317d2c22756e69745f6964223a22753131312d30227d7d	91a57bc5cfbc0d7e60499b163b0ba2558c79fb3a681219ab98e5f316461541c9	b19e613c8ef3d235c51912b491a5e3ff37341788c2c644432d2ba828b14dfdb4	1b876212d5441b9cc1abed3be6de2fe0d527d4edd520d36c214524a1d03b8663
112	2026-01-01T00:01:52.000000Z	memory.awmu.seed	operator:alice	\\x7b22636f6e746578745f6964223a227661756c74222c2272616e6b223a3630302c2274657874223a22546865207661756c7420686f6c6473207468652063726f776e2e227d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b2265766963746564223a5b5d2c226f7574636f6d65223a22736565646564222c22756e6974223a7b22617574686f72697479223a2252454c4941424c45222c22617574686f726974795f6365696c696e67223a2252454c4941424c45222c22636f6e666964656e6365223a312e302c22636f6e746578745f6964223a227661756c74222c22637265617465645f736571223a3131322c226c6173745f7265696e666f726365645f7475726e223a302c2270696e6e6564223a66616c73652c2272616e6b223a3630302c227265696e666f7263656d656e745f636f756e74223a302c22736f757263655f696473223a5b226f70657261746f72225d2c22737461747573223a22414354495645222c22737570657273656465645f6279223a6e756c6c2c2273757065727365646573223a5b5d2c2274657874223a22546865207661756c7420686f6c6473207468652063726f776e2e222c2274696572223a22484f54222c2274727573745f73636f7265223a6e756c6c2c2274727573745f7369676e616c73223a7b7d2c22756e69745f6964223a22753131322d30222c22757064617465645f736571223a3131327d2c22756e69745f6964223a22753131322d30227d7d	fa2a115fad2026a56e7a72fa48f3788ccf19216f066e84d932079049ad995078	1b876212d5441b9cc1abed3be6de2fe0d527d4edd520d36c214524a1d03b8663	8a3afd4ca610c3ec98b16fc85b9716051a218df3ce60688050ac2130aba0d57a
113	2026-01-01T00:01:53.000000Z	memory.awmu.seed	operator:alice	\\x7b22617574686f72697479223a22554e52454c4941424c45222c22636f6e746578745f6964223a227661756c74222c2272616e6b223a3135302c2274657874223a2241206775617264207761746368657320746865207374616972732e227d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b2265766963746564223a5b5d2c226f7574636f6d65223a22736565646564222c22756e6974223a7b22617574686f72697479223a22554e52454c4941424c45222c22617574686f726974795f6365696c696e67223a2252454c4941424c45222c22636f6e666964656e6365223a312e302c22636f6e746578745f6964223a227661756c74222c22637265617465645f736571223a3131332c226c6173745f7265696e666f726365645f7475726e223a302c2270696e6e6564223a66616c73652c2272616e6b223a3135302c227265696e666f7263656d656e745f636f756e74223a302c22736f757263655f696473223a5b226f70657261746f72225d2c22737461747573223a22414354495645222c22737570657273656465645f6279223a6e756c6c2c2273757065727365646573223a5b5d2c2274657874223a2241206775617264207761746368657320746865207374616972732e222c2274696572223a22434f4c44222c2274727573745f73636f7265223a6e756c6c2c2274727573745f7369676e616c73223a7b7d2c22756e69745f6964223a22753131332d30222c22757064617465645f736571223a3131337d2c22756e69745f6964223a22753131332d30227d7d	0ec6c3d73056a5f141c33c9077a3771fd6b4571f15e0fad41ab25f930b93bef5	8a3afd4ca610c3ec98b16fc85b9716051a218df3ce60688050ac2130aba0d57a	9e6342f9414026b2bbf0f7b8ef1bd551f281b83380525113bd67c2a3a89f5386
114	2026-01-01T00:01:54.000000Z	memory.awmu.seed	operator:alice	\\x7b22617574686f72697479223a2250524f564953494f4e414c222c22636f6e746578745f6964223a227661756c74222c2272616e6b223a3330302c2274657874223a22546865206c616d70206973206c69742e227d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b2265766963746564223a5b5d2c226f7574636f6d65223a22736565646564222c22756e6974223a7b22617574686f72697479223a2250524f564953494f4e414c222c22617574686f726974795f6365696c696e67223a2252454c4941424c45222c22636f6e666964656e6365223a312e302c22636f6e746578745f6964223a227661756c74222c22637265617465645f736571223a3131342c226c6173745f7265696e666f726365645f7475726e223a302c2270696e6e6564223a66616c73652c2272616e6b223a3330302c227265696e666f7263656d656e745f636f756e74223a302c22736f757263655f696473223a5b226f70657261746f72225d2c22737461747573223a22414354495645222c22737570657273656465645f6279223a6e756c6c2c2273757065727365646573223a5b5d2c2274657874223a22546865206c616d70206973206c69742e222c2274696572223a22434f4c44222c2274727573745f73636f7265223a6e756c6c2c2274727573745f7369676e616c73223a7b7d2c22756e69745f6964223a22753131342d30222c22757064617465645f736571223a3131347d2c22756e69745f6964223a22753131342d30227d7d	4e192814300657ce479ae2ca9686d2fa674a7454413aed8f4e1c7e0a38368459	9e6342f9414026b2bbf0f7b8ef1bd551f281b83380525113bd67c2a3a89f5386	7de49f5ea6dbb3bd7767d295df79b8504dd7b46ba5e326575c5484055e4111e7
115	2026-01-01T00:01:55.000000Z	memory.awmu.seed	operator:alice	\\x7b22617574686f72697479223a22554e52454c4941424c45222c22636f6e746578745f6964223a227661756c74222c2272616e6b223a3430302c2274657874223a2254686520636f7572747961726420697320656d7074792e227d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b2265766963746564223a5b22753131342d30225d2c226f7574636f6d65223a22736565646564222c22756e6974223a7b22617574686f72697479223a22554e52454c4941424c45222c22617574686f726974795f6365696c696e67223a2252454c4941424c45222c22636f6e666964656e6365223a312e302c22636f6e746578745f6964223a227661756c74222c22637265617465645f736571223a3131352c226c6173745f7265696e666f726365645f7475726e223a302c2270696e6e6564223a66616c73652c2272616e6b223a3430302c227265696e666f7263656d656e745f636f756e74223a302c22736f757263655f696473223a5b226f70657261746f72225d2c22737461747573223a22414354495645222c22737570657273656465645f6279223a6e756c6c2c2273757065727365646573223a5b5d2c2274657874223a2254686520636f7572747961726420697320656d7074792e222c2274696572223a225741524d222c2274727573745f73636f7265223a6e756c6c2c2274727573745f7369676e616c73223a7b7d2c22756e69745f6964223a22753131352d30222c22757064617465645f736571223a3131357d2c22756e69745f6964223a22753131352d30227d7d	d6290089934d22a5882bbf4906263c487c9e803d63a0ba2c3348575074a45c4f	7de49f5ea6dbb3bd7767d295df79b8504dd7b46ba5e326575c5484055e4111e7	b7e499ac626763006151350ae55a7d9e479b6b0c99a114fcc260c844e91d199c
116	2026-01-01T00:01:56.000000Z	memory.awmu.propose	agent:dm	\\x7b22636f6e666964656e6365223a302e39352c22636f6e746578745f6964223a227661756c74222c22736f75726365223a226361707461696e222c2274657874223a22546865206361707461696e20636f756e74732074686520636f696e732e227d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22636f6e666c69637473223a5b5d2c226f7574636f6d65223a227175657565645f666f725f726576696577222c227265766965775f6964223a2272313136222c227472757374223a7b226365696c696e67223a22554e52454c4941424c45222c2273636f7265223a302e3530323738362c227369676e616c73223a7b22636f72726f626f726174696f6e223a302e332c2265787472616374696f6e5f636f6e666964656e6365223a302e39352c2267726170685f636f6e73697374656e6379223a302e31343238353731343238353731343238352c22696d706f7274616e6365223a302e32352c226e6f76656c7479223a302e383537313432383537313432383537322c22736f757263655f617574686f72697479223a302e39357d2c227a6f6e65223a22524556494557227d7d7d	a949532d5d5a5ef1d9233b4b045bcec2b192e8122f19cc8cfc164beae1c4c837	b7e499ac626763006151350ae55a7d9e479b6b0c99a114fcc260c844e91d199c	b107ee00e525455f9413b7d5afeafff75bbb1afaddd3806b63f6baf3ae5719bc
117	2026-01-01T00:01:57.000000Z	memory.awmu.propose	agent:dm	\\x7b22636f6e666964656e6365223a302e392c22636f6e746578745f6964223a227661756c74222c22736f75726365223a2272756d6f7572222c2274657874223a225468652063726f776e207761732073746f6c656e2e227d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22636f6e666c69637473223a5b5d2c226f7574636f6d65223a226172636869766564222c227472757374223a7b226365696c696e67223a2250524f564953494f4e414c222c2273636f7265223a302e3431323333332c227369676e616c73223a7b22636f72726f626f726174696f6e223a302e332c2265787472616374696f6e5f636f6e666964656e6365223a302e392c2267726170685f636f6e73697374656e6379223a302e333333333333333333333333333333332c22696d706f7274616e6365223a302e352c226e6f76656c7479223a302e363636363636363636363636363636372c22736f757263655f617574686f72697479223a302e317d2c227a6f6e65223a2241524348495645227d7d7d	9f243f539df2067be1bd00e7ec544b8cc35a4c093dfc95130d79ce0a4cb4b7c9	b107ee00e525455f9413b7d5afeafff75bbb1afaddd3806b63f6baf3ae5719bc	f561a0831799c3d4d444a35f4d0d4289817293d0e99a2f6324eaa71e90d88c9f
118	2026-01-01T00:01:58.000000Z	memory.awmu.archive	operator:alice	\\x7b22636f6e746578745f6964223a227661756c74222c22756e69745f6964223a22753131312d30227d	awmu_invariant_violation	\\x7b226572726f72223a7b22636f6465223a2261776d755f696e76617269616e745f76696f6c6174696f6e222c2264657461696c223a22696e76617269616e7420676174652d73746179733a20756e697420753131312d3020776f756c64206c6561766520746865206163746976652073657420286172636869766529222c226d657373616765223a22616e206f70657261746f7220696e76617269616e7420284d5553542920666f72626964732074686973206368616e6765227d2c226f6b223a66616c73657d	4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945	f561a0831799c3d4d444a35f4d0d4289817293d0e99a2f6324eaa71e90d88c9f	08510da194977fb3f5302a40d59a85e002daae3a833f7b133cae38a6a98c34e6
119	2026-01-01T00:01:59.000000Z	memory.awmu.archive	operator:alice	\\x7b22636f6e746578745f6964223a227661756c74222c22756e69745f6964223a22753131322d30227d	awmu_invariant_violation	\\x7b226572726f72223a7b22636f6465223a2261776d755f696e76617269616e745f76696f6c6174696f6e222c2264657461696c223a22696e76617269616e74206f6e652d72656c6961626c652d7661756c743a20756e697420753131322d3020776f756c64206c656176652030206d61746368696e6720756e6974732061742052454c4941424c45206f722061626f7665222c226d657373616765223a22616e206f70657261746f7220696e76617269616e7420284d5553542920666f72626964732074686973206368616e6765227d2c226f6b223a66616c73657d	4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945	08510da194977fb3f5302a40d59a85e002daae3a833f7b133cae38a6a98c34e6	2ebd6a69fe4840c52b4b90b9eeedbc8b62817d748da2e21c017e2ded8fde23aa
120	2026-01-01T00:02:00.000000Z	memory.awmu.turn	agent:dm	\\x7b22636f6e746578745f6964223a227661756c74222c227265696e666f726365223a5b5d7d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22616374697665223a332c2264656361796564223a5b7b226166746572223a3734302c226172636869766564223a66616c73652c226265666f7265223a3830302c22756e69745f6964223a22753131312d30227d2c7b226166746572223a3535352c226172636869766564223a66616c73652c226265666f7265223a3630302c22756e69745f6964223a22753131322d30227d2c7b226166746572223a3132332c226172636869766564223a747275652c226265666f7265223a3135302c22756e69745f6964223a22753131332d30227d2c7b226166746572223a3335362c226172636869766564223a66616c73652c226265666f7265223a3430302c22756e69745f6964223a22753131352d30227d5d2c227265696e666f72636564223a5b5d2c227475726e223a317d7d	4e0eeaceda2352f0b5179851ccb0810dc83237341cd04a54cb31a2526bb43858	2ebd6a69fe4840c52b4b90b9eeedbc8b62817d748da2e21c017e2ded8fde23aa	b21046a7c89b2e7731148bd5735eee91d5366f3b9a8fb8e04e07cef3d70746d9
121	2026-01-01T00:02:01.000000Z	memory.awmu.turn	agent:dm	\\x7b22636f6e746578745f6964223a227661756c74222c227265696e666f726365223a5b5d7d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22616374697665223a332c2264656361796564223a5b7b226166746572223a3638352c226172636869766564223a66616c73652c226265666f7265223a3734302c22756e69745f6964223a22753131312d30227d2c7b226166746572223a3439342c226172636869766564223a66616c73652c226265666f7265223a3535352c22756e69745f6964223a22753131322d30227d2c7b226166746572223a3331372c226172636869766564223a66616c73652c226265666f7265223a3335362c22756e69745f6964223a22753131352d30227d5d2c227265696e666f72636564223a5b5d2c227475726e223a327d7d	0b227ccaf0893a14d7634c6cbe1f3b9b464fdfe86f3b3dc887f412c7445c3004	b21046a7c89b2e7731148bd5735eee91d5366f3b9a8fb8e04e07cef3d70746d9	dc859bffcbf5e1c7cfb1eca81dd8a1f746b091bf936fb371d549053eeb5e57cb
122	2026-01-01T00:02:02.000000Z	memory.awmu.turn	agent:dm	\\x7b22636f6e746578745f6964223a227661756c74222c227265696e666f726365223a5b5d7d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22616374697665223a332c2264656361796564223a5b7b226166746572223a3633342c226172636869766564223a66616c73652c226265666f7265223a3638352c22756e69745f6964223a22753131312d30227d2c7b226166746572223a3434302c226172636869766564223a66616c73652c226265666f7265223a3439342c22756e69745f6964223a22753131322d30227d2c7b226166746572223a3236312c226172636869766564223a66616c73652c226265666f7265223a3331372c22756e69745f6964223a22753131352d30227d5d2c227265696e666f72636564223a5b5d2c227475726e223a337d7d	9281fd10c6ee1022ff36cc34964fdaf44ef6930fb71ce8d671348f63e98e2124	dc859bffcbf5e1c7cfb1eca81dd8a1f746b091bf936fb371d549053eeb5e57cb	0542cc82e8f446812b4cd462ebe3be96e4687205f521aacb9c03176ea988b62b
123	2026-01-01T00:02:03.000000Z	memory.awmu.turn	agent:dm	\\x7b22636f6e746578745f6964223a227661756c74222c227265696e666f726365223a5b5d7d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22616374697665223a332c2264656361796564223a5b7b226166746572223a3538372c226172636869766564223a66616c73652c226265666f7265223a3633342c22756e69745f6964223a22753131312d30227d2c7b226166746572223a3339312c226172636869766564223a66616c73652c226265666f7265223a3434302c22756e69745f6964223a22753131322d30227d2c7b226166746572223a3231352c226172636869766564223a66616c73652c226265666f7265223a3236312c22756e69745f6964223a22753131352d30227d5d2c227265696e666f72636564223a5b5d2c227475726e223a347d7d	011d8eef018b8e9782bf6fa2da188f495b508f6fb12b1e0db98cbe6ee22ab11a	0542cc82e8f446812b4cd462ebe3be96e4687205f521aacb9c03176ea988b62b	566432dc7a0f361fc8db6ce88a218fe1f7c83528baf5d8110d1e3a70e3ca707c
124	2026-01-01T00:02:04.000000Z	memory.awmu.turn	agent:dm	\\x7b22636f6e746578745f6964223a227661756c74222c227265696e666f726365223a5b5d7d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22616374697665223a322c2264656361796564223a5b7b226166746572223a3532322c226172636869766564223a66616c73652c226265666f7265223a3538372c22756e69745f6964223a22753131312d30227d2c7b226166746572223a3334382c226172636869766564223a66616c73652c226265666f7265223a3339312c22756e69745f6964223a22753131322d30227d2c7b226166746572223a3137372c226172636869766564223a747275652c226265666f7265223a3231352c22756e69745f6964223a22753131352d30227d5d2c227265696e666f72636564223a5b5d2c227475726e223a357d7d	4eaccbf9155658389342611f9b3b4d722ac6bb6931279e7ba845e185909feb2b	566432dc7a0f361fc8db6ce88a218fe1f7c83528baf5d8110d1e3a70e3ca707c	e90ce144175868028536eb6e6ae0b8af2ab0c985ac1cd2f18ffcffbd4f284fa5
125	2026-01-01T00:02:05.000000Z	memory.awmu.turn	agent:dm	\\x7b22636f6e746578745f6964223a227661756c74222c227265696e666f726365223a5b5d7d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22616374697665223a322c2264656361796564223a5b7b226166746572223a3436352c226172636869766564223a66616c73652c226265666f7265223a3532322c22756e69745f6964223a22753131312d30227d2c7b226166746572223a3238372c226172636869766564223a66616c73652c226265666f7265223a3334382c22756e69745f6964223a22753131322d30227d5d2c227265696e666f72636564223a5b5d2c227475726e223a367d7d	668b4578578cf522fa19bdfa859c063bd8f1af814a0e4998a220f2ea005d96f9	e90ce144175868028536eb6e6ae0b8af2ab0c985ac1cd2f18ffcffbd4f284fa5	63076667470be3c91380de678a4955545887e0dee449dacc37d162c6e225f6f9
126	2026-01-01T00:02:06.000000Z	memory.awmu.turn	agent:dm	\\x7b22636f6e746578745f6964223a227661756c74222c227265696e666f726365223a5b5d7d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22616374697665223a322c2264656361796564223a5b7b226166746572223a3431342c226172636869766564223a66616c73652c226265666f7265223a3436352c22756e69745f6964223a22753131312d30227d2c7b226166746572223a3233362c226172636869766564223a66616c73652c226265666f7265223a3238372c22756e69745f6964223a22753131322d30227d5d2c227265696e666f72636564223a5b5d2c227475726e223a377d7d	c632c1c404ef0e0af9a20f4aea412625d001eafc5b134d00fbfc0dc045e89d54	63076667470be3c91380de678a4955545887e0dee449dacc37d162c6e225f6f9	12e9e04c3f2d4892b9f146ba857a934e3b850ee48309c8431d1f295d546d839b
127	2026-01-01T00:02:07.000000Z	memory.awmu.turn	agent:dm	\\x7b22636f6e746578745f6964223a227661756c74222c227265696e666f726365223a5b5d7d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22616374697665223a322c2264656361796564223a5b7b226166746572223a3336382c226172636869766564223a66616c73652c226265666f7265223a3431342c22756e69745f6964223a22753131312d30227d2c7b226166746572223a3139342c226172636869766564223a66616c73652c226265666f7265223a3233362c22756e69745f6964223a22753131322d30227d5d2c227265696e666f72636564223a5b5d2c227475726e223a387d7d	4cb15dbd62679aec17447ca6f40c8ebfc45fcf75f184b2d73628790c246647e2	12e9e04c3f2d4892b9f146ba857a934e3b850ee48309c8431d1f295d546d839b	371a57743919093a0c0ab7b9bf49bc89cba4c61c992687cf311209c429615109
128	2026-01-01T00:02:08.000000Z	memory.awmu.list	agent:dm	\\x7b22636f6e746578745f6964223a227661756c74222c22737461747573223a22616c6c227d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b2263616e6f6e5f7265717565737473223a5b5d2c22636f6e746578745f6964223a227661756c74222c22636f756e74223a352c227265766965775f7175657565223a5b7b22617574686f726974795f6365696c696e67223a22554e52454c4941424c45222c22636f6e666964656e6365223a302e39352c22636f6e746578745f6964223a227661756c74222c22637265617465645f736571223a3131362c22646563696465645f6279223a6e756c6c2c22646563696465645f736571223a6e756c6c2c227265766965775f6964223a2272313136222c22736f75726365223a226361707461696e222c22737461747573223a2250454e44494e47222c2274657874223a22546865206361707461696e20636f756e74732074686520636f696e732e222c2274727573745f73636f7265223a302e3530323738362c2274727573745f7369676e616c73223a7b22636f72726f626f726174696f6e223a302e332c2265787472616374696f6e5f636f6e666964656e6365223a302e39352c2267726170685f636f6e73697374656e6379223a302e31343238353731343238353731343238352c22696d706f7274616e6365223a302e32352c226e6f76656c7479223a302e383537313432383537313432383537322c22736f757263655f617574686f72697479223a302e39357d2c22756e69745f6964223a6e756c6c2c227665726469637473223a5b5d7d5d2c227475726e223a382c22756e697473223a5b7b22617574686f72697479223a22554e52454c4941424c45222c22617574686f726974795f6365696c696e67223a2252454c4941424c45222c22636f6e666964656e6365223a312e302c22636f6e746578745f6964223a227661756c74222c22637265617465645f736571223a3131312c226c6173745f7265696e666f726365645f7475726e223a302c2270696e6e6564223a66616c73652c2272616e6b223a3336382c227265696e666f7263656d656e745f636f756e74223a302c22736f757263655f696473223a5b226f70657261746f72225d2c22737461747573223a22414354495645222c22737570657273656465645f6279223a6e756c6c2c2273757065727365646573223a5b5d2c2274657874223a22546865206e6f7274682067617465206973207365616c65642e222c2274696572223a225741524d222c2274727573745f73636f7265223a6e756c6c2c2274727573745f7369676e616c73223a7b7d2c22756e69745f6964223a22753131312d30222c22757064617465645f736571223a3132377d2c7b22617574686f72697479223a2250524f564953494f4e414c222c22617574686f726974795f6365696c696e67223a2252454c4941424c45222c22636f6e666964656e6365223a312e302c22636f6e746578745f6964223a227661756c74222c22637265617465645f736571223a3131342c226c6173745f7265696e666f726365645f7475726e223a302c2270696e6e6564223a66616c73652c2272616e6b223a3330302c227265696e666f7263656d656e745f636f756e74223a302c22736f757263655f696473223a5b226f70657261746f72225d2c22737461747573223a2245564943544544222c22737570657273656465645f6279223a6e756c6c2c2273757065727365646573223a5b5d2c2274657874223a22546865206c616d70206973206c69742e222c2274696572223a22434f4c44222c2274727573745f73636f7265223a6e756c6c2c2274727573745f7369676e616c73223a7b7d2c22756e69745f6964223a22753131342d30222c22757064617465645f736571223a3131357d2c7b22617574686f72697479223a2252454c4941424c45222c22617574686f726974795f6365696c696e67223a2252454c4941424c45222c22636f6e666964656e6365223a312e302c22636f6e746578745f6964223a227661756c74222c22637265617465645f736571223a3131322c226c6173745f7265696e666f726365645f7475726e223a302c2270696e6e6564223a66616c73652c2272616e6b223a3139342c227265696e666f7263656d656e745f636f756e74223a302c22736f757263655f696473223a5b226f70657261746f72225d2c22737461747573223a22414354495645222c22737570657273656465645f6279223a6e756c6c2c2273757065727365646573223a5b5d2c2274657874223a22546865207661756c7420686f6c6473207468652063726f776e2e222c2274696572223a22434f4c44222c2274727573745f73636f7265223a6e756c6c2c2274727573745f7369676e616c73223a7b7d2c22756e69745f6964223a22753131322d30222c22757064617465645f736571223a3132377d2c7b22617574686f72697479223a2250524f564953494f4e414c222c22617574686f726974795f6365696c696e67223a2252454c4941424c45222c22636f6e666964656e6365223a312e302c22636f6e746578745f6964223a227661756c74222c22637265617465645f736571223a3131352c226c6173745f7265696e666f726365645f7475726e223a302c2270696e6e6564223a66616c73652c2272616e6b223a3137372c227265696e666f7263656d656e745f636f756e74223a302c22736f757263655f696473223a5b226f70657261746f72225d2c22737461747573223a224152434849564544222c22737570657273656465645f6279223a6e756c6c2c2273757065727365646573223a5b5d2c2274657874223a2254686520636f7572747961726420697320656d7074792e222c2274696572223a22434f4c44222c2274727573745f73636f7265223a6e756c6c2c2274727573745f7369676e616c73223a7b7d2c22756e69745f6964223a22753131352d30222c22757064617465645f736571223a3132347d2c7b22617574686f72697479223a2250524f564953494f4e414c222c22617574686f726974795f6365696c696e67223a2252454c4941424c45222c22636f6e666964656e6365223a312e302c22636f6e746578745f6964223a227661756c74222c22637265617465645f736571223a3131332c226c6173745f7265696e666f726365645f7475726e223a302c2270696e6e6564223a66616c73652c2272616e6b223a3132332c227265696e666f7263656d656e745f636f756e74223a302c22736f757263655f696473223a5b226f70657261746f72225d2c22737461747573223a224152434849564544222c22737570657273656465645f6279223a6e756c6c2c2273757065727365646573223a5b5d2c2274657874223a2241206775617264207761746368657320746865207374616972732e222c2274696572223a22434f4c44222c2274727573745f73636f7265223a6e756c6c2c2274727573745f7369676e616c73223a7b7d2c22756e69745f6964223a22753131332d30222c22757064617465645f736571223a3132307d5d7d7d	4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945	371a57743919093a0c0ab7b9bf49bc89cba4c61c992687cf311209c429615109	2c1664a32a7ebd0d3c7402f36cc0f90f36e9630f79ce5d934aa9fcdcb0db6589
129	2026-01-01T00:02:09.000000Z	memory.awmu.events	agent:dm	\\x7b22636f6e746578745f6964223a227661756c74222c226b696e6473223a5b22696e76617269616e745f626c6f636b6564222c22696e76617269616e745f7761726e696e67225d2c226c696d6974223a3130307d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22636f6e746578745f6964223a227661756c74222c226576656e7473223a5b7b22636f6e746578745f6964223a227661756c74222c2264657461696c223a7b226d657373616765223a22696e76617269616e742067756172642d666c6f6f723a20756e697420753131332d3020776f756c642064726f702062656c6f772052454c4941424c45222c2272756c65223a2267756172642d666c6f6f72227d2c22696e646578223a332c226b696e64223a22696e76617269616e745f7761726e696e67222c22736571223a3132302c227475726e223a312c22756e69745f6964223a22753131332d30227d2c7b22636f6e746578745f6964223a227661756c74222c2264657461696c223a7b226d657373616765223a22696e76617269616e74206f6e652d72656c6961626c652d7661756c743a20756e697420753131322d3020776f756c64206c656176652030206d61746368696e6720756e6974732061742052454c4941424c45206f722061626f7665222c2272756c65223a226f6e652d72656c6961626c652d7661756c74227d2c22696e646578223a322c226b696e64223a22696e76617269616e745f626c6f636b6564222c22736571223a3132332c227475726e223a342c22756e69745f6964223a22753131322d30227d2c7b22636f6e746578745f6964223a227661756c74222c2264657461696c223a7b226d657373616765223a22696e76617269616e74206f6e652d72656c6961626c652d7661756c743a20756e697420753131322d3020776f756c64206c656176652030206d61746368696e6720756e6974732061742052454c4941424c45206f722061626f7665222c2272756c65223a226f6e652d72656c6961626c652d7661756c74227d2c22696e646578223a322c226b696e64223a22696e76617269616e745f626c6f636b6564222c22736571223a3132342c227475726e223a352c22756e69745f6964223a22753131322d30227d2c7b22636f6e746578745f6964223a227661756c74222c2264657461696c223a7b226d657373616765223a22696e76617269616e74206f6e652d72656c6961626c652d7661756c743a20756e697420753131322d3020776f756c64206c656176652030206d61746368696e6720756e6974732061742052454c4941424c45206f722061626f7665222c2272756c65223a226f6e652d72656c6961626c652d7661756c74227d2c22696e646578223a322c226b696e64223a22696e76617269616e745f626c6f636b6564222c22736571223a3132352c227475726e223a362c22756e69745f6964223a22753131322d30227d2c7b22636f6e746578745f6964223a227661756c74222c2264657461696c223a7b226d657373616765223a22696e76617269616e74206f6e652d72656c6961626c652d7661756c743a20756e697420753131322d3020776f756c64206c656176652030206d61746368696e6720756e6974732061742052454c4941424c45206f722061626f7665222c2272756c65223a226f6e652d72656c6961626c652d7661756c74227d2c22696e646578223a322c226b696e64223a22696e76617269616e745f626c6f636b6564222c22736571223a3132362c227475726e223a372c22756e69745f6964223a22753131322d30227d2c7b22636f6e746578745f6964223a227661756c74222c2264657461696c223a7b226d657373616765223a22696e76617269616e74206f6e652d72656c6961626c652d7661756c743a20756e697420753131322d3020776f756c64206c656176652030206d61746368696e6720756e6974732061742052454c4941424c45206f722061626f7665222c2272756c65223a226f6e652d72656c6961626c652d7661756c74227d2c22696e646578223a332c226b696e64223a22696e76617269616e745f626c6f636b6564222c22736571223a3132372c227475726e223a382c22756e69745f6964223a22753131322d30227d2c7b22636f6e746578745f6964223a227661756c74222c2264657461696c223a7b226d657373616765223a22696e76617269616e74206f6e652d72656c6961626c652d7661756c743a20756e697420753131322d3020776f756c64206c656176652030206d61746368696e6720756e6974732061742052454c4941424c45206f722061626f7665222c2272756c65223a226f6e652d72656c6961626c652d7661756c74227d2c22696e646578223a342c226b696e64223a22696e76617269616e745f626c6f636b6564222c22736571223a3132372c227475726e223a382c22756e69745f6964223a22753131322d30227d5d7d7d	4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945	2c1664a32a7ebd0d3c7402f36cc0f90f36e9630f79ce5d934aa9fcdcb0db6589	e0267fd5c6e241f68c4068ad4c8288788616e582f14c49c3f36042f976e472dc
130	2026-01-01T00:02:10.000000Z	memory.awmu.seed	operator:alice	\\x7b22636f6e746578745f6964223a2274696e79222c2270696e6e6564223a747275652c2274657874223a224f6e6c792074686973206661637420666974732e227d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b2265766963746564223a5b5d2c226f7574636f6d65223a22736565646564222c22756e6974223a7b22617574686f72697479223a2252454c4941424c45222c22617574686f726974795f6365696c696e67223a2252454c4941424c45222c22636f6e666964656e6365223a312e302c22636f6e746578745f6964223a2274696e79222c22637265617465645f736571223a3133302c226c6173745f7265696e666f726365645f7475726e223a302c2270696e6e6564223a747275652c2272616e6b223a3530302c227265696e666f7263656d656e745f636f756e74223a302c22736f757263655f696473223a5b226f70657261746f72225d2c22737461747573223a22414354495645222c22737570657273656465645f6279223a6e756c6c2c2273757065727365646573223a5b5d2c2274657874223a224f6e6c792074686973206661637420666974732e222c2274696572223a225741524d222c2274727573745f73636f7265223a6e756c6c2c2274727573745f7369676e616c73223a7b7d2c22756e69745f6964223a22753133302d30222c22757064617465645f736571223a3133307d2c22756e69745f6964223a22753133302d30227d7d	5aae136cbdf6ab40f83fd490a4d7d58f3d0c897d7179272a9684e4831dd4240f	e0267fd5c6e241f68c4068ad4c8288788616e582f14c49c3f36042f976e472dc	d2000bca8d7a2de8b91248c46b3a6c3f086ed3d5d5d37f30b99a414eed83b26f
131	2026-01-01T00:02:11.000000Z	memory.awmu.seed	operator:alice	\\x7b22636f6e746578745f6964223a2274696e79222c2274657874223a224f6e65206661637420746f6f206d616e792e227d	awmu_budget_exhausted	\\x7b226572726f72223a7b22636f6465223a2261776d755f6275646765745f657868617573746564222c2264657461696c223a2262756467657420312069732066756c6c20616e64206e6f20756e6974206d617920626520657669637465642028616c6c206172652070696e6e65642c2043414e4f4e206f722070726f74656374656420627920616e20696e76617269616e7429222c226d657373616765223a2274686520636f6e746578742773206275646765742069732066756c6c20616e64206e6f20756e6974206d61792062652065766963746564227d2c226f6b223a66616c73657d	4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945	d2000bca8d7a2de8b91248c46b3a6c3f086ed3d5d5d37f30b99a414eed83b26f	33a168a68c8c5a50e1f7ef27e41607abcaca6657ed861f16ead5de3b2a8bfe2a
132	2026-01-01T00:02:12.000000Z	memory.awmu.propose	agent:dm	\\x7b22636f6e666964656e6365223a312e302c22636f6e746578745f6964223a2274696e79222c22736f75726365223a2273797374656d222c2274657874223a224f6e6c792074686973206661637420666974732c20616761696e2e227d	awmu_budget_exhausted	\\x7b226572726f72223a7b22636f6465223a2261776d755f6275646765745f657868617573746564222c2264657461696c223a2262756467657420312069732066756c6c20616e64206e6f20756e6974206d617920626520657669637465642028616c6c206172652070696e6e65642c2043414e4f4e206f722070726f74656374656420627920616e20696e76617269616e7429222c226d657373616765223a2274686520636f6e746578742773206275646765742069732066756c6c20616e64206e6f20756e6974206d61792062652065766963746564227d2c226f6b223a66616c73657d	4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945	33a168a68c8c5a50e1f7ef27e41607abcaca6657ed861f16ead5de3b2a8bfe2a	26030398e644a5efe04df5622be0b5bfc1d220ca718b5b72b45d175e7b48750b
133	2026-01-01T00:02:13.000000Z	memory.awmu.list	agent:dm	\\x7b22636f6e746578745f6964223a2274617665726e227d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b2263616e6f6e5f7265717565737473223a5b5d2c22636f6e746578745f6964223a2274617665726e222c22636f756e74223a332c227265766965775f7175657565223a5b5d2c227475726e223a34302c22756e697473223a5b7b22617574686f72697479223a22554e52454c4941424c45222c22617574686f726974795f6365696c696e67223a22554e52454c4941424c45222c22636f6e666964656e6365223a302e392c22636f6e746578745f6964223a2274617665726e222c22637265617465645f736571223a33342c226c6173745f7265696e666f726365645f7475726e223a34302c2270696e6e6564223a66616c73652c2272616e6b223a3930302c227265696e666f7263656d656e745f636f756e74223a34302c22736f757263655f696473223a5b22646d225d2c22737461747573223a22414354495645222c22737570657273656465645f6279223a6e756c6c2c2273757065727365646573223a5b5d2c2274657874223a224120647261676f6e20736c656570732062656e6561746820746865206d6f756e7461696e2e222c2274696572223a22484f54222c2274727573745f73636f7265223a302e3537342c2274727573745f7369676e616c73223a7b22636f72726f626f726174696f6e223a302e332c2265787472616374696f6e5f636f6e666964656e6365223a302e392c2267726170685f636f6e73697374656e6379223a302e322c22696d706f7274616e6365223a302e333333333333333333333333333333332c226e6f76656c7479223a302e382c22736f757263655f617574686f72697479223a302e397d2c22756e69745f6964223a227533342d30222c22757064617465645f736571223a3130377d2c7b22617574686f72697479223a2243414e4f4e222c22617574686f726974795f6365696c696e67223a2252454c4941424c45222c22636f6e666964656e6365223a312e302c22636f6e746578745f6964223a2274617665726e222c22637265617465645f736571223a31302c226c6173745f7265696e666f726365645f7475726e223a302c2270696e6e6564223a66616c73652c2272616e6b223a3730302c227265696e666f7263656d656e745f636f756e74223a302c22736f757263655f696473223a5b226f70657261746f72225d2c22737461747573223a22414354495645222c22737570657273656465645f6279223a6e756c6c2c2273757065727365646573223a5b5d2c2274657874223a22546865206f6c64206b696e6720697320646561642e222c2274696572223a22484f54222c2274727573745f73636f7265223a6e756c6c2c2274727573745f7369676e616c73223a7b7d2c22756e69745f6964223a227531302d30222c22757064617465645f736571223a34337d2c7b22617574686f72697479223a2243414e4f4e222c22617574686f726974795f6365696c696e67223a2252454c4941424c45222c22636f6e666964656e6365223a312e302c22636f6e746578745f6964223a2274617665726e222c22637265617465645f736571223a31312c226c6173745f7265696e666f726365645f7475726e223a302c2270696e6e6564223a747275652c2272616e6b223a3530302c227265696e666f7263656d656e745f636f756e74223a302c22736f757263655f696473223a5b226f70657261746f72225d2c22737461747573223a22414354495645222c22737570657273656465645f6279223a6e756c6c2c2273757065727365646573223a5b5d2c2274657874223a22456c617261206b65657073207468652053696c76657220537461672074617665726e2e222c2274696572223a225741524d222c2274727573745f73636f7265223a6e756c6c2c2274727573745f7369676e616c73223a7b7d2c22756e69745f6964223a227531312d30222c22757064617465645f736571223a35307d5d7d7d	4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945	26030398e644a5efe04df5622be0b5bfc1d220ca718b5b72b45d175e7b48750b	800ab5baa88fa758a8579c52a6569019650f4e55ce6e985e190aab8c0d7c0a82
134	2026-01-01T00:02:14.000000Z	memory.awmu.list	agent:dm	\\x7b22636f6e746578745f6964223a2274617665726e222c22737461747573223a226172636869766564227d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b2263616e6f6e5f7265717565737473223a5b5d2c22636f6e746578745f6964223a2274617665726e222c22636f756e74223a362c227265766965775f7175657565223a5b5d2c227475726e223a34302c22756e697473223a5b7b22617574686f72697479223a2250524f564953494f4e414c222c22617574686f726974795f6365696c696e67223a22554e52454c4941424c45222c22636f6e666964656e6365223a312e302c22636f6e746578745f6964223a2274617665726e222c22637265617465645f736571223a35392c226c6173745f7265696e666f726365645f7475726e223a302c2270696e6e6564223a66616c73652c2272616e6b223a3530302c227265696e666f7263656d656e745f636f756e74223a302c22736f757263655f696473223a5b2273797374656d225d2c22737461747573223a224152434849564544222c22737570657273656465645f6279223a6e756c6c2c2273757065727365646573223a5b5d2c2274657874223a2254686520776f6c66207061636b2063726f7373657320746865207269766572206174206461776e2e222c2274696572223a225741524d222c2274727573745f73636f7265223a302e3730383835372c2274727573745f7369676e616c73223a7b22636f72726f626f726174696f6e223a302e332c2265787472616374696f6e5f636f6e666964656e6365223a312e302c2267726170685f636f6e73697374656e6379223a302e3632352c22696d706f7274616e6365223a302e373134323835373134323835373134332c226e6f76656c7479223a302e3337352c22736f757263655f617574686f72697479223a312e307d2c22756e69745f6964223a227535392d30222c22757064617465645f736571223a36307d2c7b22617574686f72697479223a2250524f564953494f4e414c222c22617574686f726974795f6365696c696e67223a2252454c4941424c45222c22636f6e666964656e6365223a312e302c22636f6e746578745f6964223a2274617665726e222c22637265617465645f736571223a31322c226c6173745f7265696e666f726365645f7475726e223a302c2270696e6e6564223a66616c73652c2272616e6b223a3133372c227265696e666f7263656d656e745f636f756e74223a302c22736f757263655f696473223a5b226f70657261746f72225d2c22737461747573223a224152434849564544222c22737570657273656465645f6279223a6e756c6c2c2273757065727365646573223a5b5d2c2274657874223a225468652066657272792063726f7373657320746865207269766572206174206461776e2e222c2274696572223a22434f4c44222c2274727573745f73636f7265223a6e756c6c2c2274727573745f7369676e616c73223a7b7d2c22756e69745f6964223a227531322d30222c22757064617465645f736571223a37337d2c7b22617574686f72697479223a2250524f564953494f4e414c222c22617574686f726974795f6365696c696e67223a2252454c4941424c45222c22636f6e666964656e6365223a312e302c22636f6e746578745f6964223a2274617665726e222c22637265617465645f736571223a31342c226c6173745f7265696e666f726365645f7475726e223a302c2270696e6e6564223a66616c73652c2272616e6b223a3133372c227265696e666f7263656d656e745f636f756e74223a302c22736f757263655f696473223a5b226c6564676572225d2c22737461747573223a224152434849564544222c22737570657273656465645f6279223a6e756c6c2c2273757065727365646573223a5b5d2c2274657874223a22546865206d696c6c20776865656c207475726e7320616761696e2e222c2274696572223a22434f4c44222c2274727573745f73636f7265223a6e756c6c2c2274727573745f7369676e616c73223a7b7d2c22756e69745f6964223a227531342d30222c22757064617465645f736571223a38317d2c7b22617574686f72697479223a2250524f564953494f4e414c222c22617574686f726974795f6365696c696e67223a22554e52454c4941424c45222c22636f6e666964656e6365223a312e302c22636f6e746578745f6964223a2274617665726e222c22637265617465645f736571223a32372c226c6173745f7265696e666f726365645f7475726e223a302c2270696e6e6564223a66616c73652c2272616e6b223a3133372c227265696e666f7263656d656e745f636f756e74223a302c22736f757263655f696473223a5b2273797374656d225d2c22737461747573223a224152434849564544222c22737570657273656465645f6279223a6e756c6c2c2273757065727365646573223a5b2275392d30225d2c2274657874223a225468652073746f726d206f7665722074686520736561206861732063616c6d65642e222c2274696572223a22434f4c44222c2274727573745f73636f7265223a302e3638362c2274727573745f7369676e616c73223a7b22636f72726f626f726174696f6e223a302e332c2265787472616374696f6e5f636f6e666964656e6365223a312e302c2267726170685f636f6e73697374656e6379223a302e352c22696d706f7274616e6365223a302e363636363636363636363636363636362c226e6f76656c7479223a302e352c22736f757263655f617574686f72697479223a312e307d2c22756e69745f6964223a227532372d30222c22757064617465645f736571223a38317d2c7b22617574686f72697479223a2250524f564953494f4e414c222c22617574686f726974795f6365696c696e67223a22554e52454c4941424c45222c22636f6e666964656e6365223a312e302c22636f6e746578745f6964223a2274617665726e222c22637265617465645f736571223a32382c226c6173745f7265696e666f726365645f7475726e223a32302c2270696e6e6564223a66616c73652c2272616e6b223a3133372c227265696e666f7263656d656e745f636f756e74223a342c22736f757263655f696473223a5b2273797374656d225d2c22737461747573223a224152434849564544222c22737570657273656465645f6279223a6e756c6c2c2273757065727365646573223a5b227531332d30225d2c2274657874223a225468652076696c6c6167652077656c6c20697320636c65616e7365642e222c2274696572223a22434f4c44222c2274727573745f73636f7265223a302e3732303636372c2274727573745f7369676e616c73223a7b22636f72726f626f726174696f6e223a302e332c2265787472616374696f6e5f636f6e666964656e6365223a312e302c2267726170685f636f6e73697374656e6379223a302e363636363636363636363636363636362c22696d706f7274616e6365223a302e382c226e6f76656c7479223a302e33333333333333333333333333333333372c22736f757263655f617574686f72697479223a312e307d2c22756e69745f6964223a227532382d30222c22757064617465645f736571223a39357d2c7b22617574686f72697479223a2250524f564953494f4e414c222c22617574686f726974795f6365696c696e67223a22554e52454c4941424c45222c22636f6e666964656e6365223a312e302c22636f6e746578745f6964223a2274617665726e222c22637265617465645f736571223a32392c226c6173745f7265696e666f726365645f7475726e223a302c2270696e6e6564223a66616c73652c2272616e6b223a3133372c227265696e666f7263656d656e745f636f756e74223a302c22736f757263655f696473223a5b2273797374656d225d2c22737461747573223a224152434849564544222c22737570657273656465645f6279223a6e756c6c2c2273757065727365646573223a5b5d2c2274657874223a22546865206d696c6c20776865656c207475726e7320736c6f77657220696e2077696e7465722e222c2274696572223a22434f4c44222c2274727573745f73636f7265223a302e3638303238362c2274727573745f7369676e616c73223a7b22636f72726f626f726174696f6e223a302e332c2265787472616374696f6e5f636f6e666964656e6365223a312e302c2267726170685f636f6e73697374656e6379223a302e352c22696d706f7274616e6365223a302e353731343238353731343238353731342c226e6f76656c7479223a302e352c22736f757263655f617574686f72697479223a312e307d2c22756e69745f6964223a227532392d30222c22757064617465645f736571223a38317d5d7d7d	4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945	800ab5baa88fa758a8579c52a6569019650f4e55ce6e985e190aab8c0d7c0a82	8b60cf99bf4014c6194edf856de3ab987c7194fc2959f05dd5960185b636b099
135	2026-01-01T00:02:15.000000Z	memory.awmu.list	agent:dm	\\x7b22617574686f72697479223a22554e52454c4941424c45222c22636f6e746578745f6964223a2274617665726e222c22737461747573223a2273757065727365646564227d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b2263616e6f6e5f7265717565737473223a5b5d2c22636f6e746578745f6964223a2274617665726e222c22636f756e74223a312c227265766965775f7175657565223a5b5d2c227475726e223a34302c22756e697473223a5b7b22617574686f72697479223a22554e52454c4941424c45222c22617574686f726974795f6365696c696e67223a2252454c4941424c45222c22636f6e666964656e6365223a312e302c22636f6e746578745f6964223a2274617665726e222c22637265617465645f736571223a31332c226c6173745f7265696e666f726365645f7475726e223a302c2270696e6e6564223a66616c73652c2272616e6b223a3435302c227265696e666f7263656d656e745f636f756e74223a302c22736f757263655f696473223a5b226f70657261746f72225d2c22737461747573223a2253555045525345444544222c22737570657273656465645f6279223a227532382d30222c2273757065727365646573223a5b5d2c2274657874223a225468652076696c6c6167652077656c6c20697320706f69736f6e65642e222c2274696572223a225741524d222c2274727573745f73636f7265223a6e756c6c2c2274727573745f7369676e616c73223a7b7d2c22756e69745f6964223a227531332d30222c22757064617465645f736571223a32387d5d7d7d	4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945	8b60cf99bf4014c6194edf856de3ab987c7194fc2959f05dd5960185b636b099	2ab2dddcb339942091b53296e8a1da60e6b2b1788b9bce71e6b20c5ff4ed7948
136	2026-01-01T00:02:16.000000Z	memory.awmu.list	agent:dm	\\x7b22636f6e746578745f6964223a2274617665726e222c2270696e6e6564223a66616c73652c2274696572223a22434f4c44227d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b2263616e6f6e5f7265717565737473223a5b5d2c22636f6e746578745f6964223a2274617665726e222c22636f756e74223a302c227265766965775f7175657565223a5b5d2c227475726e223a34302c22756e697473223a5b5d7d7d	4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945	2ab2dddcb339942091b53296e8a1da60e6b2b1788b9bce71e6b20c5ff4ed7948	b7a69ba955ed05d5cd5fac1d18576be04ec301093bf39074f4aad2125913af51
137	2026-01-01T00:02:17.000000Z	memory.awmu.list	agent:dm	\\x7b22636f6e746578745f6964223a227661756c74222c22737461747573223a2265766963746564227d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b2263616e6f6e5f7265717565737473223a5b5d2c22636f6e746578745f6964223a227661756c74222c22636f756e74223a312c227265766965775f7175657565223a5b7b22617574686f726974795f6365696c696e67223a22554e52454c4941424c45222c22636f6e666964656e6365223a302e39352c22636f6e746578745f6964223a227661756c74222c22637265617465645f736571223a3131362c22646563696465645f6279223a6e756c6c2c22646563696465645f736571223a6e756c6c2c227265766965775f6964223a2272313136222c22736f75726365223a226361707461696e222c22737461747573223a2250454e44494e47222c2274657874223a22546865206361707461696e20636f756e74732074686520636f696e732e222c2274727573745f73636f7265223a302e3530323738362c2274727573745f7369676e616c73223a7b22636f72726f626f726174696f6e223a302e332c2265787472616374696f6e5f636f6e666964656e6365223a302e39352c2267726170685f636f6e73697374656e6379223a302e31343238353731343238353731343238352c22696d706f7274616e6365223a302e32352c226e6f76656c7479223a302e383537313432383537313432383537322c22736f757263655f617574686f72697479223a302e39357d2c22756e69745f6964223a6e756c6c2c227665726469637473223a5b5d7d5d2c227475726e223a382c22756e697473223a5b7b22617574686f72697479223a2250524f564953494f4e414c222c22617574686f726974795f6365696c696e67223a2252454c4941424c45222c22636f6e666964656e6365223a312e302c22636f6e746578745f6964223a227661756c74222c22637265617465645f736571223a3131342c226c6173745f7265696e666f726365645f7475726e223a302c2270696e6e6564223a66616c73652c2272616e6b223a3330302c227265696e666f7263656d656e745f636f756e74223a302c22736f757263655f696473223a5b226f70657261746f72225d2c22737461747573223a2245564943544544222c22737570657273656465645f6279223a6e756c6c2c2273757065727365646573223a5b5d2c2274657874223a22546865206c616d70206973206c69742e222c2274696572223a22434f4c44222c2274727573745f73636f7265223a6e756c6c2c2274727573745f7369676e616c73223a7b7d2c22756e69745f6964223a22753131342d30222c22757064617465645f736571223a3131357d5d7d7d	4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945	b7a69ba955ed05d5cd5fac1d18576be04ec301093bf39074f4aad2125913af51	79cb36972af388a61e96a25f5369e8457066bb73d6c7c47d2b9604e48ba02244
138	2026-01-01T00:02:18.000000Z	memory.awmu.list	agent:dm	\\x7b22636f6e746578745f6964223a2274617665726e222c22737461747573223a22676f6e65227d	invalid_args	\\x7b226572726f72223a7b22636f6465223a22696e76616c69645f61726773222c2264657461696c223a22496e76616c696420656e756d2076616c75652027676f6e6527202d2061742060242e73746174757360222c226d657373616765223a2274686520617267756d656e747320646f206e6f74206d61746368207468652073797363616c6c277320726571756573742074797065227d2c226f6b223a66616c73657d	4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945	79cb36972af388a61e96a25f5369e8457066bb73d6c7c47d2b9604e48ba02244	f6cb1575b566b02b0704da7f2b251d6f701095d8ededa703c1a718e3bf0878f6
139	2026-01-01T00:02:19.000000Z	memory.awmu.get	agent:dm	\\x7b22636f6e746578745f6964223a2274617665726e222c22756e69745f6964223a2275392d30227d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22756e6974223a7b22617574686f72697479223a2250524f564953494f4e414c222c22617574686f726974795f6365696c696e67223a22554e52454c4941424c45222c22636f6e666964656e6365223a312e302c22636f6e746578745f6964223a2274617665726e222c22637265617465645f736571223a392c226c6173745f7265696e666f726365645f7475726e223a302c2270696e6e6564223a66616c73652c2272616e6b223a3530302c227265696e666f7263656d656e745f636f756e74223a302c22736f757263655f696473223a5b2273797374656d225d2c22737461747573223a2253555045525345444544222c22737570657273656465645f6279223a227532372d30222c2273757065727365646573223a5b5d2c2274657874223a22412073746f726d2067617468657273206f76657220746865207365612e222c2274696572223a225741524d222c2274727573745f73636f7265223a302e3637362c2274727573745f7369676e616c73223a7b22636f72726f626f726174696f6e223a302e332c2265787472616374696f6e5f636f6e666964656e6365223a312e302c2267726170685f636f6e73697374656e6379223a302e352c22696d706f7274616e6365223a302e302c226e6f76656c7479223a312e302c22736f757263655f617574686f72697479223a312e307d2c22756e69745f6964223a2275392d30222c22757064617465645f736571223a32377d7d7d	4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945	f6cb1575b566b02b0704da7f2b251d6f701095d8ededa703c1a718e3bf0878f6	ec5e6157b2f430a327301a7d2625e9e6e0b14def00d865a0d403724899042e19
140	2026-01-01T00:02:20.000000Z	memory.awmu.get	agent:dm	\\x7b22636f6e746578745f6964223a2274617665726e222c22756e69745f6964223a227537372d30227d	awmu_unit_not_found	\\x7b226572726f72223a7b22636f6465223a2261776d755f756e69745f6e6f745f666f756e64222c2264657461696c223a226e6f20756e697420277537372d302720696e20636f6e74657874202774617665726e27222c226d657373616765223a226e6f20756e6974206f6620746869732069642065786973747320696e2074686520636f6e74657874227d2c226f6b223a66616c73657d	4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945	ec5e6157b2f430a327301a7d2625e9e6e0b14def00d865a0d403724899042e19	95473e99eed9a31ef25d9762ede4d7cbba7ebf41febef9a3fa8412b95b558490
141	2026-01-01T00:02:21.000000Z	memory.awmu.get	agent:dm	\\x7b22636f6e746578745f6964223a227661756c74222c22756e69745f6964223a227531302d30227d	awmu_unit_not_found	\\x7b226572726f72223a7b22636f6465223a2261776d755f756e69745f6e6f745f666f756e64222c2264657461696c223a226e6f20756e697420277531302d302720696e20636f6e7465787420277661756c7427222c226d657373616765223a226e6f20756e6974206f6620746869732069642065786973747320696e2074686520636f6e74657874227d2c226f6b223a66616c73657d	4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945	95473e99eed9a31ef25d9762ede4d7cbba7ebf41febef9a3fa8412b95b558490	09773e59c180c2b8babf3af9b373bc931d38597c66fc4e9222f6275ec6f98b15
142	2026-01-01T00:02:22.000000Z	memory.awmu.assemble	agent:dm	\\x7b22636f6e746578745f6964223a2274617665726e227d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22636f6e746578745f6964223a2274617665726e222c2264726f70706564223a5b5d2c22657374696d617465645f746f6b656e73223a38342c22696e636c75646564223a5b227533342d30222c227531302d30222c227531312d30225d2c226f7665725f627564676574223a66616c73652c2274657874223a2245737461626c69736865642066616374732028776f726b696e67206d656d6f7279293a5c6e43414e4f4e2066616374733a207468657365204d555354206265207072657365727665643b20636f727265637420616e797468696e67207468617420636f6e7472616469637473207468656d2e5c6e312e20546865206f6c64206b696e6720697320646561642e202861637469766174696f6e2073636f72653a20373030295c6e322e20456c617261206b65657073207468652053696c76657220537461672074617665726e2e202861637469766174696f6e2073636f72653a20353030295c6e554e52454c4941424c452066616374733a2074686573652053484f554c4420626520636f6e736964657265642e5c6e312e204120647261676f6e20736c656570732062656e6561746820746865206d6f756e7461696e2e202861637469766174696f6e2073636f72653a2039303029222c22746f6b656e5f627564676574223a302c227475726e223a34307d7d	4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945	09773e59c180c2b8babf3af9b373bc931d38597c66fc4e9222f6275ec6f98b15	59124c2c2e5907ed53510255bf17fdaccfc28cc4a566f21256aef1c5326bc36a
143	2026-01-01T00:02:23.000000Z	memory.awmu.assemble	agent:dm	\\x7b22636f6e746578745f6964223a2274617665726e222c22746f6b656e5f627564676574223a32307d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22636f6e746578745f6964223a2274617665726e222c2264726f70706564223a5b227533342d30225d2c22657374696d617465645f746f6b656e73223a35372c22696e636c75646564223a5b227531302d30222c227531312d30225d2c226f7665725f627564676574223a747275652c2274657874223a2245737461626c69736865642066616374732028776f726b696e67206d656d6f7279293a5c6e43414e4f4e2066616374733a207468657365204d555354206265207072657365727665643b20636f727265637420616e797468696e67207468617420636f6e7472616469637473207468656d2e5c6e312e20546865206f6c64206b696e6720697320646561642e202861637469766174696f6e2073636f72653a20373030295c6e322e20456c617261206b65657073207468652053696c76657220537461672074617665726e2e202861637469766174696f6e2073636f72653a2035303029222c22746f6b656e5f627564676574223a32302c227475726e223a34307d7d	4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945	59124c2c2e5907ed53510255bf17fdaccfc28cc4a566f21256aef1c5326bc36a	4cf952d5d7274361b473e848c13614efa619f99b19e4c25192b76945c8cf70a2
144	2026-01-01T00:02:24.000000Z	memory.awmu.assemble	agent:dm	\\x7b22636f6e746578745f6964223a227661756c74222c22746f6b656e5f627564676574223a357d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22636f6e746578745f6964223a227661756c74222c2264726f70706564223a5b22753131312d30222c22753131322d30225d2c22657374696d617465645f746f6b656e73223a302c22696e636c75646564223a5b5d2c226f7665725f627564676574223a66616c73652c2274657874223a22222c22746f6b656e5f627564676574223a352c227475726e223a387d7d	4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945	4cf952d5d7274361b473e848c13614efa619f99b19e4c25192b76945c8cf70a2	7e27b60f77ddb2f6cd6b1fe432b81609e376a14b502a629c8cd66e432e79a9ce
145	2026-01-01T00:02:25.000000Z	memory.awmu.events	agent:dm	\\x7b22636f6e746578745f6964223a2274617665726e222c226c696d6974223a357d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22636f6e746578745f6964223a2274617665726e222c226576656e7473223a5b7b22636f6e746578745f6964223a2274617665726e222c2264657461696c223a7b22617574686f72697479223a2250524f564953494f4e414c222c2270696e6e6564223a66616c73652c2272616e6b223a3530302c22736f75726365223a2273797374656d227d2c22696e646578223a302c226b696e64223a2263726561746564222c22736571223a392c227475726e223a302c22756e69745f6964223a2275392d30227d2c7b22636f6e746578745f6964223a2274617665726e222c2264657461696c223a7b22617574686f72697479223a2252454c4941424c45222c2270696e6e6564223a66616c73652c2272616e6b223a3730302c22736f75726365223a226f70657261746f72227d2c22696e646578223a302c226b696e64223a2263726561746564222c22736571223a31302c227475726e223a302c22756e69745f6964223a227531302d30227d2c7b22636f6e746578745f6964223a2274617665726e222c2264657461696c223a7b22617574686f72697479223a2252454c4941424c45222c2270696e6e6564223a747275652c2272616e6b223a3530302c22736f75726365223a226f70657261746f72227d2c22696e646578223a302c226b696e64223a2263726561746564222c22736571223a31312c227475726e223a302c22756e69745f6964223a227531312d30227d2c7b22636f6e746578745f6964223a2274617665726e222c2264657461696c223a7b22617574686f72697479223a22554e52454c4941424c45222c2270696e6e6564223a66616c73652c2272616e6b223a3330302c22736f75726365223a226f70657261746f72227d2c22696e646578223a302c226b696e64223a2263726561746564222c22736571223a31322c227475726e223a302c22756e69745f6964223a227531322d30227d2c7b22636f6e746578745f6964223a2274617665726e222c2264657461696c223a7b22617574686f72697479223a22554e52454c4941424c45222c2270696e6e6564223a66616c73652c2272616e6b223a3435302c22736f75726365223a226f70657261746f72227d2c22696e646578223a302c226b696e64223a2263726561746564222c22736571223a31332c227475726e223a302c22756e69745f6964223a227531332d30227d5d7d7d	4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945	7e27b60f77ddb2f6cd6b1fe432b81609e376a14b502a629c8cd66e432e79a9ce	5f30d01010243f6858c84d8f1bce9e9c4a5bd25ea296d0f7449f3f832f068e24
146	2026-01-01T00:02:26.000000Z	memory.awmu.events	agent:dm	\\x7b2261667465725f696e646578223a302c2261667465725f736571223a31332c22636f6e746578745f6964223a2274617665726e222c226c696d6974223a357d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22636f6e746578745f6964223a2274617665726e222c226576656e7473223a5b7b22636f6e746578745f6964223a2274617665726e222c2264657461696c223a7b22617574686f72697479223a2252454c4941424c45222c2270696e6e6564223a66616c73652c2272616e6b223a3530302c22736f75726365223a226c6564676572227d2c22696e646578223a302c226b696e64223a2263726561746564222c22736571223a31342c227475726e223a302c22756e69745f6964223a227531342d30227d2c7b22636f6e746578745f6964223a2274617665726e222c2264657461696c223a7b22736f75726365223a226f70657261746f72227d2c22696e646578223a302c226b696e64223a226475706c6963617465222c22736571223a31352c227475726e223a302c22756e69745f6964223a227531302d30227d2c7b22636f6e746578745f6964223a2274617665726e222c2264657461696c223a7b22636f6e666964656e6365223a302e342c22726561736f6e223a226c6f775f636f6e666964656e6365222c22736f75726365223a22706c61796572227d2c22696e646578223a302c226b696e64223a2272656a6563746564222c22736571223a32312c227475726e223a302c22756e69745f6964223a6e756c6c7d2c7b22636f6e746578745f6964223a2274617665726e222c2264657461696c223a7b22736f75726365223a22646d227d2c22696e646578223a302c226b696e64223a226475706c6963617465222c22736571223a32322c227475726e223a302c22756e69745f6964223a2275392d30227d2c7b22636f6e746578745f6964223a2274617665726e222c2264657461696c223a7b227265736f6c7574696f6e223a224b4545505f4558495354494e47222c22736f75726365223a22706c61796572222c2274797065223a22434f4e54524144494354494f4e227d2c22696e646578223a302c226b696e64223a22636f6e666c696374222c22736571223a32332c227475726e223a302c22756e69745f6964223a227531302d30227d5d7d7d	4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945	5f30d01010243f6858c84d8f1bce9e9c4a5bd25ea296d0f7449f3f832f068e24	0069b7a2b687b1e43c9440b5029b55f776bb26f2f9e3a1a928ddbf60b1ad8e24
147	2026-01-01T00:02:27.000000Z	memory.awmu.events	agent:dm	\\x7b22636f6e746578745f6964223a2274617665726e222c22756e69745f6964223a227531302d30227d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22636f6e746578745f6964223a2274617665726e222c226576656e7473223a5b7b22636f6e746578745f6964223a2274617665726e222c2264657461696c223a7b22617574686f72697479223a2252454c4941424c45222c2270696e6e6564223a66616c73652c2272616e6b223a3730302c22736f75726365223a226f70657261746f72227d2c22696e646578223a302c226b696e64223a2263726561746564222c22736571223a31302c227475726e223a302c22756e69745f6964223a227531302d30227d2c7b22636f6e746578745f6964223a2274617665726e222c2264657461696c223a7b22736f75726365223a226f70657261746f72227d2c22696e646578223a302c226b696e64223a226475706c6963617465222c22736571223a31352c227475726e223a302c22756e69745f6964223a227531302d30227d2c7b22636f6e746578745f6964223a2274617665726e222c2264657461696c223a7b227265736f6c7574696f6e223a224b4545505f4558495354494e47222c22736f75726365223a22706c61796572222c2274797065223a22434f4e54524144494354494f4e227d2c22696e646578223a302c226b696e64223a22636f6e666c696374222c22736571223a32332c227475726e223a302c22756e69745f6964223a227531302d30227d2c7b22636f6e746578745f6964223a2274617665726e222c2264657461696c223a7b226279223a226167656e743a646d222c22726571756573745f6964223a22633430227d2c22696e646578223a302c226b696e64223a2263616e6f6e5f726571756573746564222c22736571223a34302c227475726e223a302c22756e69745f6964223a227531302d30227d2c7b22636f6e746578745f6964223a2274617665726e222c2264657461696c223a7b226e6f7465223a22222c22726571756573745f6964223a22633430222c22737461747573223a22415050524f564544227d2c22696e646578223a302c226b696e64223a2263616e6f6e5f64656369646564222c22736571223a34332c227475726e223a302c22756e69745f6964223a227531302d30227d2c7b22636f6e746578745f6964223a2274617665726e222c2264657461696c223a7b226166746572223a2243414e4f4e222c226265666f7265223a2252454c4941424c45222c226279223a226f70657261746f723a616c696365222c22646972656374696f6e223a227570222c22726561736f6e223a2263616e6f6e697a6174696f6e222c22726571756573745f6964223a22633430227d2c22696e646578223a312c226b696e64223a22617574686f726974795f6368616e676564222c22736571223a34332c227475726e223a302c22756e69745f6964223a227531302d30227d5d7d7d	4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945	0069b7a2b687b1e43c9440b5029b55f776bb26f2f9e3a1a928ddbf60b1ad8e24	db09663ebff4a2d6fcc9dde06142002e6f93f7e9d28103fd13c39c6529850a60
148	2026-01-01T00:02:28.000000Z	memory.awmu.events	agent:dm	\\x7b22636f6e746578745f6964223a2274617665726e222c226b696e6473223a5b226e6f5f737563685f6b696e64225d7d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22636f6e746578745f6964223a2274617665726e222c226576656e7473223a5b5d7d7d	4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945	db09663ebff4a2d6fcc9dde06142002e6f93f7e9d28103fd13c39c6529850a60	7109f7fdf577bf38766abdde8481d8ff226d78dd2b9de7a976e13d20acda169a
149	2026-01-01T00:02:29.000000Z	memory.awmu.events	agent:dm	\\x7b22636f6e746578745f6964223a2274617665726e222c226c696d6974223a307d	invalid_args	\\x7b226572726f72223a7b22636f6465223a22696e76616c69645f61726773222c2264657461696c223a2245787065637465642060696e7460203e3d2031202d2061742060242e6c696d697460222c226d657373616765223a2274686520617267756d656e747320646f206e6f74206d61746368207468652073797363616c6c277320726571756573742074797065227d2c226f6b223a66616c73657d	4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945	7109f7fdf577bf38766abdde8481d8ff226d78dd2b9de7a976e13d20acda169a	11d5603ded1e7578d9a1c8afb471288a45303742f39906f74ff06d6c785c9f50
150	2026-01-01T00:02:30.000000Z	memory.awmu.validate_summary	agent:dm	\\x7b22636f6e746578745f6964223a2274617665726e222c2273756d6d617279223a224120647261676f6e20736c656570732062656e6561746820746865206d6f756e7461696e2e227d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22636f6e746578745f6964223a2274617665726e222c226c6f7374223a5b7b226d697373696e675f7465726d73223a5b226b696e67222c2264656164225d2c2274657874223a22546865206f6c64206b696e6720697320646561642e222c22756e69745f6964223a227531302d30227d2c7b226d697373696e675f7465726d73223a5b22656c617261222c226b65657073222c2273696c766572222c2273746167222c2274617665726e225d2c2274657874223a22456c617261206b65657073207468652053696c76657220537461672074617665726e2e222c22756e69745f6964223a227531312d30227d5d2c226f6b223a66616c73652c2270726f746563746564223a322c22737472696374223a66616c73657d7d	d5bd06fe6bbe0d0f2b87fa238f53e05169a9e740f4dedc75e72d913d69563664	11d5603ded1e7578d9a1c8afb471288a45303742f39906f74ff06d6c785c9f50	67f5aff581629063988a7cfb9aa70c572a7cd1c1e092199807329c8a57a07cf0
151	2026-01-01T00:02:31.000000Z	memory.awmu.validate_summary	agent:dm	\\x7b22636f6e746578745f6964223a2274617665726e222c22737472696374223a747275652c2273756d6d617279223a22546865206f6c64206b696e6720697320646561643b20456c617261206b65657073207468652053696c76657220537461672074617665726e3b207468652076696c6c6167652077656c6c20697320636c65616e7365643b206120647261676f6e20736c656570732062656e6561746820746865206d6f756e7461696e2e227d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22636f6e746578745f6964223a2274617665726e222c226c6f7374223a5b5d2c226f6b223a747275652c2270726f746563746564223a322c22737472696374223a747275657d7d	fee3ff56687b6c764b379f1a531f15798bd5ed971dcc5f85be9336c64f56508b	67f5aff581629063988a7cfb9aa70c572a7cd1c1e092199807329c8a57a07cf0	33ff2bf77406a4d807337e67937b37b4db53b4ecb52c2d5354c3413340258a52
152	2026-01-01T00:02:32.000000Z	memory.awmu.pressure	agent:dm	\\x7b22636f6e746578745f6964223a2274617665726e227d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22616374697665223a332c22627564676574223a32302c22636f6d70616374696f6e73223a302e342c22636f6e666c69637473223a302e302c22636f6e746578745f6964223a2274617665726e222c2264656d6f74696f6e73223a302e302c2273636f7265223a302e303633323337393030303737323434352c227475726e223a34302c227574696c69736174696f6e223a302e30353830393437353031393331313132352c2277696e646f77223a7b22636f6d70616374696f6e73223a322c22636f6e666c69637473223a302c2264656d6f74696f6e73223a307d7d7d	4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945	33ff2bf77406a4d807337e67937b37b4db53b4ecb52c2d5354c3413340258a52	8a5b35acb99b7791d48f36f40b40495dda77a9d8cafd4416554ae283d85e71b6
153	2026-01-01T00:02:33.000000Z	memory.awmu.pressure	agent:dm	\\x7b22636f6e746578745f6964223a227661756c74227d	ok	\\x7b226f6b223a747275652c2276616c7565223a7b22616374697665223a322c22627564676574223a342c22636f6d70616374696f6e73223a302e302c22636f6e666c69637473223a302e302c22636f6e746578745f6964223a227661756c74222c2264656d6f74696f6e73223a302e342c2273636f7265223a302e32323134323133353632333733303935352c227475726e223a382c227574696c69736174696f6e223a302e333533353533333930353933323733382c2277696e646f77223a7b22636f6d70616374696f6e73223a302c22636f6e666c69637473223a302c2264656d6f74696f6e73223a327d7d7d	4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945	8a5b35acb99b7791d48f36f40b40495dda77a9d8cafd4416554ae283d85e71b6	be0c9c1c3babb432264d19577958995738ec3e05d5cbd57f3af91183d8db078f
154	2026-01-01T00:02:34.000000Z	memory.awmu.pressure	agent:dm	\\x7b22636f6e746578745f6964223a226e6f7768657265227d	awmu_context_not_found	\\x7b226572726f72223a7b22636f6465223a2261776d755f636f6e746578745f6e6f745f666f756e64222c2264657461696c223a226e6f20776f726b696e672d6d656d6f727920636f6e7465787420276e6f776865726527222c226d657373616765223a226e6f20776f726b696e672d6d656d6f727920636f6e74657874206f66207468697320696420657869737473227d2c226f6b223a66616c73657d	4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945	be0c9c1c3babb432264d19577958995738ec3e05d5cbd57f3af91183d8db078f	05acc028f746949a7051c8acb30b8f19ae889601af3cccb4199f18a3a9b96754
155	2026-01-01T00:02:35.000000Z	memory.awmu.forget	agent:dm	\\x7b22636f6e746578745f6964223a2274617665726e227d	unknown_syscall	\\x7b226572726f72223a7b22636f6465223a22756e6b6e6f776e5f73797363616c6c222c2264657461696c223a22746865206e616d65206973206e6f7420696e207468652073797363616c6c207461626c65222c226d657373616765223a226e6f2073797363616c6c206f662074686973206e616d6520697320696e20746865207461626c65227d2c226f6b223a66616c73657d	4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945	05acc028f746949a7051c8acb30b8f19ae889601af3cccb4199f18a3a9b96754	5c176b2cf4a7ea169ff1360237bca5e3a1d149a36817428fc171536bada3d3d0
\.


--
-- Data for Name: journal_header; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.journal_header (singleton, journal_id, format_version, created_at, genesis_hash) FROM stdin;
1	golden:r1-working-memory	1	2026-01-01T00:00:00.000000Z	f43842a04187956a2d98bc6876df716072514ba827dc7fc3b5c015d13688ea38
\.


--
-- Data for Name: memory_entries; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.memory_entries (user_id, key, version, memory_type, created_at, source, notes, value_ref, expires_at, revoked_at, superseded_at, governance, written_seq) FROM stdin;
\.


--
-- Data for Name: memory_entry_counts; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.memory_entry_counts (user_id, entries) FROM stdin;
\.


--
-- Data for Name: merkle_tiles; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.merkle_tiles (tile, root) FROM stdin;
\.


--
-- Data for Name: pipeline_runs; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.pipeline_runs (run_id, user_id, principal, began_seq, ended_seq) FROM stdin;
\.


--
-- Data for Name: state_checkpoint_dirty; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.state_checkpoint_dirty (tbl, part, row_key) FROM stdin;
\.


--
-- Data for Name: state_checkpoints; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.state_checkpoints (seq, manifest_hash) FROM stdin;
\.


--
-- Name: journal_header_singleton_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.journal_header_singleton_seq', 1, false);


--
-- Name: merkle_tiles_tile_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.merkle_tiles_tile_seq', 1, false);


--
-- Name: state_checkpoints_seq_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.state_checkpoints_seq_seq', 1, false);


--
-- Name: alembic_version alembic_version_pkc; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.alembic_version
    ADD CONSTRAINT alembic_version_pkc PRIMARY KEY (version_num);


--
-- Name: awmu_canon_requests awmu_canon_requests_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.awmu_canon_requests
    ADD CONSTRAINT awmu_canon_requests_pkey PRIMARY KEY (request_id);


--
-- Name: awmu_context_owners awmu_context_owners_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.awmu_context_owners
    ADD CONSTRAINT awmu_context_owners_pkey PRIMARY KEY (context_id);


--
-- Name: awmu_contexts awmu_contexts_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.awmu_contexts
    ADD CONSTRAINT awmu_contexts_pkey PRIMARY KEY (context_id);


--
-- Name: awmu_events awmu_events_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.awmu_events
    ADD CONSTRAINT awmu_events_pkey PRIMARY KEY (seq, idx);


--
-- Name: awmu_reviews awmu_reviews_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.awmu_reviews
    ADD CONSTRAINT awmu_reviews_pkey PRIMARY KEY (review_id);


--
-- Name: awmu_units awmu_units_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.awmu_units
    ADD CONSTRAINT awmu_units_pkey PRIMARY KEY (unit_id);


--
-- Name: grants grants_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.grants
    ADD CONSTRAINT grants_pkey PRIMARY KEY (principal, capability, scope);


--
-- Name: graph_blobs graph_blobs_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.graph_blobs
    ADD CONSTRAINT graph_blobs_pkey PRIMARY KEY (hash);


--
-- Name: graph_channel_values graph_channel_values_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.graph_channel_values
    ADD CONSTRAINT graph_channel_values_pkey PRIMARY KEY (thread_id, checkpoint_ns, channel, version);


--
-- Name: graph_checkpoints graph_checkpoints_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.graph_checkpoints
    ADD CONSTRAINT graph_checkpoints_pkey PRIMARY KEY (thread_id, checkpoint_ns, checkpoint_id);


--
-- Name: graph_store_items graph_store_items_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.graph_store_items
    ADD CONSTRAINT graph_store_items_pkey PRIMARY KEY (namespace, key);


--
-- Name: graph_store_namespaces graph_store_namespaces_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.graph_store_namespaces
    ADD CONSTRAINT graph_store_namespaces_pkey PRIMARY KEY (namespace);


--
-- Name: graph_store_owners graph_store_owners_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.graph_store_owners
    ADD CONSTRAINT graph_store_owners_pkey PRIMARY KEY (prefix);


--
-- Name: graph_thread_owners graph_thread_owners_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.graph_thread_owners
    ADD CONSTRAINT graph_thread_owners_pkey PRIMARY KEY (thread_id);


--
-- Name: graph_writes graph_writes_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.graph_writes
    ADD CONSTRAINT graph_writes_pkey PRIMARY KEY (thread_id, checkpoint_ns, checkpoint_id, task_id, idx);


--
-- Name: journal_header journal_header_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.journal_header
    ADD CONSTRAINT journal_header_pkey PRIMARY KEY (singleton);


--
-- Name: journal journal_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.journal
    ADD CONSTRAINT journal_pkey PRIMARY KEY (seq);


--
-- Name: memory_entries memory_entries_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.memory_entries
    ADD CONSTRAINT memory_entries_pkey PRIMARY KEY (user_id, key, version);


--
-- Name: memory_entry_counts memory_entry_counts_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.memory_entry_counts
    ADD CONSTRAINT memory_entry_counts_pkey PRIMARY KEY (user_id);


--
-- Name: merkle_tiles merkle_tiles_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.merkle_tiles
    ADD CONSTRAINT merkle_tiles_pkey PRIMARY KEY (tile);


--
-- Name: pipeline_runs pipeline_runs_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.pipeline_runs
    ADD CONSTRAINT pipeline_runs_pkey PRIMARY KEY (run_id);


--
-- Name: state_checkpoint_dirty state_checkpoint_dirty_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.state_checkpoint_dirty
    ADD CONSTRAINT state_checkpoint_dirty_pkey PRIMARY KEY (tbl, part, row_key);


--
-- Name: state_checkpoints state_checkpoints_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.state_checkpoints
    ADD CONSTRAINT state_checkpoints_pkey PRIMARY KEY (seq);


--
-- Name: ix_awmu_canon_context_status; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_awmu_canon_context_status ON public.awmu_canon_requests USING btree (context_id, status);


--
-- Name: ix_awmu_events_context_seq; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_awmu_events_context_seq ON public.awmu_events USING btree (context_id, seq);


--
-- Name: ix_awmu_reviews_context_status; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_awmu_reviews_context_status ON public.awmu_reviews USING btree (context_id, status);


--
-- Name: ix_awmu_units_context_status; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_awmu_units_context_status ON public.awmu_units USING btree (context_id, status);


--
-- Name: ix_pipeline_runs_user_open; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ix_pipeline_runs_user_open ON public.pipeline_runs USING btree (user_id, ended_seq);


--
-- Name: journal_header journal_header_no_delete; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER journal_header_no_delete BEFORE DELETE ON public.journal_header FOR EACH ROW EXECUTE FUNCTION public.journal_header_no_delete();


--
-- Name: journal_header journal_header_no_truncate; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER journal_header_no_truncate BEFORE TRUNCATE ON public.journal_header FOR EACH STATEMENT EXECUTE FUNCTION public.journal_header_no_delete();


--
-- Name: journal_header journal_header_no_update; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER journal_header_no_update BEFORE UPDATE ON public.journal_header FOR EACH ROW EXECUTE FUNCTION public.journal_header_no_update();


--
-- Name: journal journal_no_delete; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER journal_no_delete BEFORE DELETE ON public.journal FOR EACH ROW EXECUTE FUNCTION public.journal_no_delete();


--
-- Name: journal journal_no_truncate; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER journal_no_truncate BEFORE TRUNCATE ON public.journal FOR EACH STATEMENT EXECUTE FUNCTION public.journal_no_delete();


--
-- Name: journal journal_no_update; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER journal_no_update BEFORE UPDATE ON public.journal FOR EACH ROW EXECUTE FUNCTION public.journal_no_update();


--
-- PostgreSQL database dump complete
--


