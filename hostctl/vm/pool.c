// SPDX-License-Identifier: GPL-2.0-only
/*
 * Files a remote libvirt host boots from, in a storage pool of its own
 * (pool.h), and memory dumps through the same pool. The daemon sees only
 * volumes: each file is sent once over the connection
 * (virStorageVolUpload), into a volume named by its SHA-256; a marker
 * volume "<sha256>.ok", created after the upload finished, says it is
 * complete, so that an upload cut short is sent again rather than booted.
 * Nothing here prints.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/evp.h>

#include <libvirt/libvirt.h>
#include <libvirt/virterror.h>

#include "base/escape.h"
#include "fileio.h"
#include "vm/domain.h"
#include "vm/pool.h"
#include "vm/vm.h"
#include "vm/vm-priv.h"

#define POOL_HASH_HEX 64
#define POOL_IO_BYTES (1 << 20)

/* A volume of one domain's, deleted when it goes. */
struct pool_scratch {
	struct pool_scratch *next;
	char domain[128];
	virStorageVolPtr vol;
	char *path;
};

struct pool_placed {
	struct pool_placed *next;
	char *local, *remote;
	dev_t dev;
	ino_t ino;
	off_t size;
	struct timespec mtime;
};

bool vm_host_remote(const struct vm_host *h)
{
	return h && h->remote;
}

void pool_stats(const struct vm_host *h, struct pool_stats *ret)
{
	*ret = h->up;
}

/* The SHA-256 of the file open as @fd, in hex, into @hex. */
static int hash_fd(int fd, char hex[POOL_HASH_HEX + 1])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0;
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	char *buf = malloc(POOL_IO_BYTES);
	ssize_t n;
	int r = 0;

	if (!ctx || !buf || !EVP_DigestInit_ex(ctx, EVP_sha256(), NULL)) {
		r = -ENOMEM;
		goto out;
	}
	while ((n = read(fd, buf, POOL_IO_BYTES)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || !EVP_DigestUpdate(ctx, buf, (size_t)n)) {
			r = n < 0 ? -errno : -EIO;
			goto out;
		}
	}
	if (!EVP_DigestFinal_ex(ctx, md, &mdlen) || mdlen * 2 > POOL_HASH_HEX) {
		r = -EIO;
		goto out;
	}
	for (unsigned int i = 0; i < mdlen; i++)
		snprintf(hex + 2 * i, 3, "%02x", md[i]);
out:
	EVP_MD_CTX_free(ctx);
	free(buf);
	return r;
}

/*
 * The pool's directory: "vlalab" beside the daemon's pool "default" (the
 * directory its images go to), or under POOL_IMAGES_DIR without one.
 */
static void pool_dir(struct vm_host *h, char *buf, size_t len)
{
	virStoragePoolPtr def = virStoragePoolLookupByName(h->conn, "default");
	char *xml = def ? virStoragePoolGetXMLDesc(def, 0) : NULL;
	const char *p = xml ? strstr(xml, "<path>") : NULL;
	const char *end = p ? strstr(p, "</path>") : NULL;

	if (end && end - p - 6 > 1 && memchr(p + 6, '&', end - p - 6) == NULL)
		snprintf(buf, len, "%.*s/" POOL_NAME, (int)(end - p - 6),
			 p + 6);
	else
		snprintf(buf, len, POOL_IMAGES_DIR "/" POOL_NAME);
	free(xml);
	if (def)
		virStoragePoolFree(def);
}

/* Look the pool up, defining, building and starting it as needed. */
static int pool_open(struct vm_host *h, char *err, size_t errlen)
{
	char dir[PATH_MAX], *xml = NULL;
	size_t len = 0;
	FILE *f;

	if (h->pool)
		return 0;
	h->pool = virStoragePoolLookupByName(h->conn, POOL_NAME);
	if (!h->pool) {
		pool_dir(h, dir, sizeof(dir));
		f = open_memstream(&xml, &len);
		if (!f)
			return -ENOMEM;
		fputs("<pool type='dir'>\n  <name>" POOL_NAME "</name>\n", f);
		esc_xml_printf(f, "  <target>\n    <path>%s</path>\n", dir);
		fputs("    <permissions><mode>0711</mode></permissions>\n"
		      "  </target>\n</pool>\n",
		      f);
		if (fclose(f) != 0) {
			free(xml);
			return -ENOMEM;
		}
		h->pool = virStoragePoolDefineXML(h->conn, xml, 0);
		free(xml);
		if (!h->pool) {
			vm_set_err(err, errlen,
				   "defining the storage pool '" POOL_NAME "'");
			return -EIO;
		}
		/* Its directory, unless there: Create says what is wrong. */
		virStoragePoolBuild(h->pool, 0);
	}
	/*
	 * Defined, but its directory gone (removed, or a daemon started with
	 * another images folder): built again, then started.
	 */
	if (virStoragePoolIsActive(h->pool) != 1 &&
	    virStoragePoolCreate(h->pool, 0) < 0 &&
	    (virStoragePoolBuild(h->pool, 0) < 0 ||
	     virStoragePoolCreate(h->pool, 0) < 0)) {
		vm_set_err(err, errlen,
			   "starting the storage pool '" POOL_NAME "'");
		return -EIO;
	}
	/* Volumes another daemon's run left there are volumes too. */
	if (virStoragePoolRefresh(h->pool, 0) < 0) {
		vm_set_err(err, errlen,
			   "refreshing the storage pool '" POOL_NAME "'");
		return -EIO;
	}
	/*
	 * What dead runs of this machine's left (pool-reap.c): best effort,
	 * counted; hostctl gc --connect says each and what would not go.
	 */
	pool_tag_init(h);
	if (*h->pool_host) {
		int r = pool_reap(h, h->pool_host, false, NULL, NULL, NULL, 0);

		h->up.reaped += r > 0 ? (unsigned int)r : 0;
	}
	return 0;
}

/* A raw volume @name of @size bytes, none allocated yet, readable by QEMU. */
static virStorageVolPtr vol_create(struct vm_host *h, const char *name,
				   uint64_t size)
{
	char xml[512];

	snprintf(xml, sizeof(xml),
		 "<volume type='file'>\n"
		 "  <name>%s</name>\n"
		 "  <capacity unit='bytes'>%" PRIu64 "</capacity>\n"
		 "  <allocation unit='bytes'>0</allocation>\n"
		 "  <target>\n"
		 "    <format type='raw'/>\n"
		 "    <permissions><mode>0644</mode></permissions>\n"
		 "  </target>\n"
		 "</volume>\n",
		 name, size);
	return virStorageVolCreateXML(h->pool, xml, 0);
}

static void vol_drop(virStorageVolPtr v)
{
	if (!v)
		return;
	virStorageVolDelete(v, 0);
	virStorageVolFree(v);
}

static int send_cb(virStreamPtr st, char *data, size_t nbytes, void *opaque)
{
	int fd = *(int *)opaque;
	ssize_t n;

	do
		n = read(fd, data, nbytes);
	while (n < 0 && errno == EINTR);
	return n < 0 ? -1 : (int)n;
}

int pool_sink_open(struct pool_sink *s, const char *path, uint64_t max)
{
	int fd;

	memset(s, 0, sizeof(*s));
	s->fd = -1;
	if (snprintf(s->tmp, sizeof(s->tmp), "%s.tmp.%d", path,
		     (int)getpid()) >= (int)sizeof(s->tmp))
		return -ENAMETOOLONG;
	/* The guest's memory: root's alone, as QEMU writes a local one. */
	fd = fileio_create_tmp(s->tmp, 0600);
	if (fd < 0)
		return fd;
	s->fd = fd;
	s->path = path;
	s->max = max;
	return 0;
}

int pool_sink_write(struct pool_sink *s, const void *buf, size_t len)
{
	int r;

	if (len > s->max - s->got)
		return -EFBIG;
	r = fileio_write_all(s->fd, buf, len);
	if (r < 0)
		return r;
	s->got += len;
	return 0;
}

int pool_sink_commit(struct pool_sink *s)
{
	int r = 0;

	if (fsync(s->fd) < 0)
		r = -errno;
	if (close(s->fd) < 0 && r == 0)
		r = -errno;
	s->fd = -1;
	if (r == 0 && rename(s->tmp, s->path) < 0)
		r = -errno;
	if (r < 0)
		unlink(s->tmp);
	return r;
}

void pool_sink_abort(struct pool_sink *s)
{
	if (s->fd < 0)
		return;
	close(s->fd);
	s->fd = -1;
	unlink(s->tmp);
}

uint64_t pool_dump_max(uint64_t mem_kib)
{
	return mem_kib * 1024 + POOL_DUMP_SLACK;
}

/* What the daemon sends of a download, into the sink (pool_dump()). */
struct recv_ctx {
	struct pool_sink *sink;
	int r; /* the sink's error, when it refused */
};

static int recv_cb(virStreamPtr st, const char *data, size_t nbytes,
		   void *opaque)
{
	struct recv_ctx *c = opaque;

	(void)st;
	c->r = pool_sink_write(c->sink, data, nbytes);
	return c->r < 0 ? -1 : (int)nbytes;
}

/* Upload the file open as @fd, @size bytes, into new volume @name. */
static virStorageVolPtr vol_upload(struct vm_host *h, int fd, const char *name,
				   uint64_t size, char *err, size_t errlen)
{
	virStorageVolPtr v = vol_create(h, name, size);
	virStreamPtr st = NULL;

	if (!v) {
		vm_set_err(err, errlen, "creating a volume");
		return NULL;
	}
	st = virStreamNew(h->conn, 0);
	if (!st || lseek(fd, 0, SEEK_SET) < 0 ||
	    virStorageVolUpload(v, st, 0, size, 0) < 0 ||
	    virStreamSendAll(st, send_cb, &fd) < 0 || virStreamFinish(st) < 0) {
		vm_set_err(err, errlen, "uploading");
		if (st)
			virStreamAbort(st);
		vol_drop(v);
		v = NULL;
	}
	if (st)
		virStreamFree(st);
	return v;
}

/*
 * The volume of content @hex, @size bytes: the one there when its marker
 * says it is complete, else uploaded from @fd now (what was there goes).
 */
static virStorageVolPtr vol_get(struct vm_host *h, int fd, const char *hex,
				uint64_t size, char *err, size_t errlen)
{
	char mname[POOL_HASH_HEX + 8], uname[POOL_HASH_HEX + 8 + POOL_TAG_MAX];
	virStorageVolPtr v, m, up;
	uint64_t t;

	snprintf(mname, sizeof(mname), "%s.ok", hex);
	v = virStorageVolLookupByName(h->pool, hex);
	m = virStorageVolLookupByName(h->pool, mname);
	/*
	 * Named by its content, and complete: the marker comes after the
	 * upload. (Not its capacity: libvirt reports a qcow2 image's
	 * virtual size.)
	 */
	if (v && m) {
		virStorageVolFree(m);
		h->up.found++;
		return v;
	}
	/* Cut short, or not ours: sent again. */
	vol_drop(m);
	vol_drop(v);
	/*
	 * Under way, and whose: a dead hostctl's upload is reaped
	 * (pool-reap.c), a live one's left alone. First, so that the volume
	 * is never there without its marker or ".ok".
	 */
	snprintf(uname, sizeof(uname), "%s.up", hex);
	if (pool_tag_name(h, uname, sizeof(uname)) < 0 ||
	    !(up = vol_create(h, uname, 0))) {
		vm_set_err(err, errlen, "marking the upload under way");
		return NULL;
	}
	t = vm_now_us();
	v = vol_upload(h, fd, hex, size, err, errlen);
	m = v ? vol_create(h, mname, 0) : NULL;
	if (v && !m) {
		vm_set_err(err, errlen, "marking the volume complete");
		vol_drop(v);
		v = NULL;
	}
	vol_drop(up);
	if (!v)
		return NULL;
	virStorageVolFree(m);
	h->up.sent++;
	h->up.bytes += size;
	h->up.send_us += vm_now_us() - t;
	return v;
}

int pool_place(struct vm_host *h, const char *path, const char **ret, char *err,
	       size_t errlen)
{
	char hex[POOL_HASH_HEX + 1] = "", msg[512];
	struct pool_placed *p;
	virStorageVolPtr v;
	struct stat st;
	uint64_t t;
	int fd, r;

	if (!h->remote) {
		*ret = path;
		return 0;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0) {
		r = -errno;
		snprintf(err, errlen, "'%s': %s", path, strerror(-r));
		if (fd >= 0)
			close(fd);
		return r;
	}
	for (p = h->placed; p; p = p->next)
		if (!strcmp(p->local, path) && p->dev == st.st_dev &&
		    p->ino == st.st_ino && p->size == st.st_size &&
		    p->mtime.tv_sec == st.st_mtim.tv_sec &&
		    p->mtime.tv_nsec == st.st_mtim.tv_nsec) {
			close(fd);
			*ret = p->remote;
			return 0;
		}
	t = vm_now_us();
	r = hash_fd(fd, hex);
	h->up.hash_us += vm_now_us() - t;
	if (r < 0) {
		close(fd);
		snprintf(err, errlen, "hashing '%s': %s", path, strerror(-r));
		return r;
	}
	r = pool_open(h, err, errlen);
	if (r < 0) {
		close(fd);
		return r;
	}
	v = vol_get(h, fd, hex, (uint64_t)st.st_size, msg, sizeof(msg));
	close(fd);
	if (!v) {
		snprintf(err, errlen, "'%s' into the pool '" POOL_NAME "': %s",
			 path, msg);
		return -EIO;
	}
	p = calloc(1, sizeof(*p));
	if (p) {
		p->local = strdup(path);
		p->remote = virStorageVolGetPath(v);
	}
	virStorageVolFree(v);
	if (!p || !p->local || !p->remote) {
		if (p && !p->remote)
			vm_set_err(err, errlen, "the volume's path");
		else
			snprintf(err, errlen, "out of memory");
		if (p) {
			free(p->local);
			free(p->remote);
		}
		free(p);
		return -EIO;
	}
	p->dev = st.st_dev;
	p->ino = st.st_ino;
	p->size = st.st_size;
	p->mtime = st.st_mtim;
	p->next = h->placed;
	h->placed = p;
	*ret = p->remote;
	return 0;
}

int pool_qcow2_backing(const char *path, char *buf, size_t len,
		       uint64_t *ret_size)
{
	unsigned char hd[32];
	uint64_t off, size;
	uint32_t blen;
	ssize_t n;
	int fd, r = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = pread(fd, hd, sizeof(hd), 0);
	if (n != (ssize_t)sizeof(hd) || memcmp(hd, "QFI\xfb", 4) != 0) {
		close(fd);
		return -EINVAL;
	}
	off = 0;
	size = 0;
	for (int i = 0; i < 8; i++) {
		off = off << 8 | hd[8 + i];
		size = size << 8 | hd[24 + i];
	}
	blen = (uint32_t)hd[16] << 24 | (uint32_t)hd[17] << 16 |
	       (uint32_t)hd[18] << 8 | hd[19];
	buf[0] = '\0';
	if (off) {
		if (blen == 0 || blen >= len)
			r = -ENAMETOOLONG;
		else if (pread(fd, buf, blen, (off_t)off) != (ssize_t)blen)
			r = -EINVAL;
		else if (buf[blen] = '\0', strlen(buf) != blen)
			r = -EINVAL;
		else
			r = 1;
	}
	close(fd);
	if (r >= 0)
		*ret_size = size;
	return r;
}

/*
 * Writable disk @i of @dc, a qcow2 overlay on a qcow2 image that has no
 * backing of its own (a cloud VM's root): a fresh overlay volume of the
 * domain's on the base uploaded (by content, read-only), into @d. What
 * the guest writes stays on the daemon's side, and goes with the VM
 * (pool_scratch_drop()).
 */
static int place_overlay(struct vm_host *h, const struct domain_config *dc,
			 unsigned int i, struct domain_disk *d, char *err,
			 size_t errlen)
{
	char base[PATH_MAX], name[192 + POOL_TAG_MAX], other[8], msg[512];
	struct pool_scratch *sc;
	const char *rbase;
	uint64_t size, bsize;
	char *xml = NULL;
	size_t len = 0;
	FILE *f;
	int r;

	r = pool_qcow2_backing(d->path, base, sizeof(base), &size);
	if (r == 1 && base[0] != '/')
		r = -EINVAL; /* cloud_overlay() records an absolute path */
	if (r == 1)
		r = pool_qcow2_backing(base, other, sizeof(other), &bsize) ==
				    0 ?
			    1 :
			    -EINVAL;
	if (r != 1 || strcmp(d->format, "qcow2") != 0) {
		snprintf(err, errlen,
			 "the writable disk '%s' over a remote connection: "
			 "only read-only disks and qcow2 overlays on a qcow2 "
			 "image are uploaded",
			 d->path);
		return -EOPNOTSUPP;
	}
	r = pool_place(h, base, &rbase, err, errlen);
	if (r < 0)
		return r;
	sc = calloc(1, sizeof(*sc));
	f = sc ? open_memstream(&xml, &len) : NULL;
	if (!f) {
		free(sc);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	snprintf(name, sizeof(name), "%s-vd%c", dc->name, 'a' + i);
	pool_tag_name(h, name, sizeof(name)); /* it fits: POOL_TAG_MAX */
	esc_xml_printf(f, "<volume type='file'>\n  <name>%s</name>\n", name);
	fprintf(f,
		"  <capacity unit='bytes'>%" PRIu64 "</capacity>\n"
		"  <target>\n    <format type='qcow2'/>\n"
		"    <permissions><mode>0600</mode></permissions>\n"
		"  </target>\n  <backingStore>\n",
		size);
	esc_xml_printf(f, "    <path>%s</path>\n", rbase);
	fputs("    <format type='qcow2'/>\n  </backingStore>\n</volume>\n", f);
	if (fclose(f) != 0) {
		free(xml);
		free(sc);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	vol_drop(virStorageVolLookupByName(h->pool, name));
	sc->vol = virStorageVolCreateXML(h->pool, xml, 0);
	free(xml);
	sc->path = sc->vol ? virStorageVolGetPath(sc->vol) : NULL;
	if (!sc->path) {
		vm_set_err(msg, sizeof(msg), "creating an overlay volume");
		snprintf(err, errlen, "'%s': %s", d->path, msg);
		vol_drop(sc->vol);
		free(sc);
		return -EIO;
	}
	snprintf(sc->domain, sizeof(sc->domain), "%s", dc->name);
	sc->next = h->scratch;
	h->scratch = sc;
	d->path = sc->path;
	return 0;
}

void pool_scratch_drop(struct vm_host *h, const char *domain)
{
	for (struct pool_scratch **pp = &h->scratch; *pp;) {
		struct pool_scratch *sc = *pp;

		if (domain && strcmp(sc->domain, domain) != 0) {
			pp = &sc->next;
			continue;
		}
		*pp = sc->next;
		vol_drop(sc->vol);
		free(sc->path);
		free(sc);
	}
}

int pool_domain(struct vm_host *h, struct domain_config *dc,
		struct domain_disk disks[DOMAIN_DISKS_MAX], char *err,
		size_t errlen)
{
	int r = 0;

	if (!h->remote)
		return 0;
	if (dc->ssh_socket || dc->ndisks > DOMAIN_DISKS_MAX) {
		snprintf(err, errlen,
			 "an SSH port over a remote connection: "
			 "its socket would be the daemon's");
		return -EOPNOTSUPP;
	}
	for (unsigned int i = 0; i < dc->ndisks; i++) {
		disks[i] = dc->disks[i];
		r = disks[i].readonly ?
			    pool_place(h, disks[i].path, &disks[i].path, err,
				       errlen) :
			    place_overlay(h, dc, i, &disks[i], err, errlen);
		if (r < 0)
			return r;
	}
	dc->disks = disks;
	r = pool_place(h, dc->kernel, &dc->kernel, err, errlen);
	if (r == 0 && dc->initrd)
		r = pool_place(h, dc->initrd, &dc->initrd, err, errlen);
	return r;
}

/*
 * The size of the dump in volume @v, checked against the most a dump of
 * @dom can be (pool_dump_max()), into *@ret. 0, or a negative errno with
 * the reason in @err.
 */
static int dump_size(virDomainPtr dom, virStorageVolPtr v, uint64_t *ret,
		     char *err, size_t errlen)
{
	unsigned long mem_kib = virDomainGetMaxMemory(dom);
	virStorageVolInfo info;
	uint64_t max;

	if (!mem_kib) {
		vm_set_err(err, errlen, "the guest's memory size");
		return -EIO;
	}
	/* The storage driver reads the file's size again for this. */
	if (virStorageVolGetInfo(v, &info) < 0) {
		vm_set_err(err, errlen, "the dump's size");
		return -EIO;
	}
	max = pool_dump_max(mem_kib);
	if (!info.capacity) {
		snprintf(err, errlen, "the dump's volume is empty");
		return -EIO;
	}
	if (info.capacity > max) {
		snprintf(
			err, errlen,
			"the dump's volume holds %" PRIu64
			" bytes, more than a dump of the guest's %lu KiB can (%" PRIu64
			"): not downloaded",
			(uint64_t)info.capacity, mem_kib, max);
		return -EFBIG;
	}
	*ret = info.capacity;
	return 0;
}

int pool_dump(struct vm *vm, const char *path, int format, char *err,
	      size_t errlen)
{
	struct vm_host *h = vm->host;
	char name[160 + POOL_TAG_MAX], *vpath = NULL;
	struct pool_sink sink = { .fd = -1 };
	struct recv_ctx rc = { .sink = &sink };
	virStorageVolPtr v = NULL;
	virStreamPtr st = NULL;
	uint64_t size = 0;
	int r = -EIO;

	if (pool_open(h, err, errlen) < 0)
		return -EIO;
	snprintf(name, sizeof(name), "dump-%s", vm->name);
	pool_tag_name(h, name, sizeof(name)); /* it fits: POOL_TAG_MAX */
	/* One a dead hostctl left behind. */
	vol_drop(virStorageVolLookupByName(h->pool, name));
	v = vol_create(h, name, 0);
	vpath = v ? virStorageVolGetPath(v) : NULL;
	if (!vpath) {
		vm_set_err(err, errlen, "creating the dump's volume");
		goto out;
	}
	if (virDomainCoreDumpWithFormat(vm->dom, vpath, format,
					VIR_DUMP_MEMORY_ONLY) < 0) {
		vm_set_err(err, errlen, "virDomainCoreDumpWithFormat");
		goto out;
	}
	/*
	 * Bounded before it lands and while it does: the size the daemon
	 * reports, no more than a dump of the guest can be, and not a byte
	 * more than that size is taken. Into a temporary file beside @path,
	 * renamed once whole: a bundle never holds part of a dump.
	 */
	r = dump_size(vm->dom, v, &size, err, errlen);
	if (r < 0)
		goto out;
	r = pool_sink_open(&sink, path, size);
	if (r < 0) {
		snprintf(err, errlen, "'%s': %s", path, strerror(-r));
		goto out;
	}
	r = -EIO;
	st = virStreamNew(h->conn, 0);
	if (!st || virStorageVolDownload(v, st, 0, size, 0) < 0 ||
	    virStreamRecvAll(st, recv_cb, &rc) < 0 || virStreamFinish(st) < 0) {
		if (rc.r == -EFBIG)
			snprintf(
				err, errlen,
				"the daemon sent more of the dump than the %" PRIu64
				" bytes its volume holds",
				size);
		else if (rc.r < 0)
			snprintf(err, errlen, "'%s': %s", sink.tmp,
				 strerror(-rc.r));
		else
			vm_set_err(err, errlen, "downloading the dump");
		if (st)
			virStreamAbort(st);
		goto out;
	}
	if (sink.got != size) {
		snprintf(err, errlen,
			 "the dump's download ended after %" PRIu64
			 " of its %" PRIu64 " bytes",
			 sink.got, size);
		goto out;
	}
	r = pool_sink_commit(&sink);
	if (r < 0)
		snprintf(err, errlen, "'%s': %s", path, strerror(-r));
out:
	pool_sink_abort(&sink);
	if (st)
		virStreamFree(st);
	free(vpath);
	vol_drop(v);
	return r;
}

void pool_close(struct vm_host *h)
{
	pool_scratch_drop(h, NULL);
	while (h->placed) {
		struct pool_placed *p = h->placed;

		h->placed = p->next;
		free(p->local);
		free(p->remote);
		free(p);
	}
	if (h->pool)
		virStoragePoolFree(h->pool);
	h->pool = NULL;
}
