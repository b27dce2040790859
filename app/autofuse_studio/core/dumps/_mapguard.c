/*
 * Read-only file mappings that survive the file shrinking under them (see mapped.py).
 *
 * Reading a page of a shared mapping that lies beyond the end of its file raises SIGBUS, which kills the
 * process: a dump truncated or rewritten while it is compared would take the whole run down. Python cannot
 * catch SIGBUS (its handler only sets a flag; the faulting read would run again for ever), and numpy and the
 * metrics kernel read the mapping from C without the GIL. So the handler lives here: each Mapping registers
 * its address range in a fixed table the handler reads without locks. A fault inside a registered range
 * replaces the pages from the faulting one to the end of the mapping with anonymous zero pages (mmap
 * MAP_FIXED, a plain system call), marks the mapping as faulted, and returns: the read is retried and finds
 * zeros, and the caller, which checks `faulted` after reading, reports the file as changed instead of using
 * the numbers. Any other SIGBUS goes to the handler that was there before (Python's faulthandler, or the
 * default action), so the process still dies as it would have.
 *
 * Mapping(fd, size) maps `size` bytes of an open file read-only and shared, exporting them through the
 * (read-only) buffer protocol; the range is unregistered, then unmapped, when the last reference goes.
 * `faulted` is True once a read of the mapping ran past the end of the file.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#if !defined(MAP_ANONYMOUS) && defined(MAP_ANON)
#define MAP_ANONYMOUS MAP_ANON
#endif

/* Mappings alive at once; one more makes the caller fall back to an unguarded mapping (mapped.py). */
#define SLOTS 4096

/* Read by the signal handler with atomic loads; written under the GIL. start == 0: a free slot. */
static uintptr_t slot_start[SLOTS];
static uintptr_t slot_end[SLOTS];
static int slot_faulted[SLOTS];
static int next_slot;
static uintptr_t page_size;
static struct sigaction previous;
static int installed;

static void on_sigbus(int sig, siginfo_t *info, void *context)
{
    uintptr_t address = (uintptr_t)info->si_addr;
    if (info->si_code > 0) { /* a memory fault, not a signal sent by kill() */
        for (int i = 0; i < SLOTS; i++) {
            uintptr_t start = __atomic_load_n(&slot_start[i], __ATOMIC_ACQUIRE);
            if (start == 0 || address < start) continue;
            uintptr_t end = __atomic_load_n(&slot_end[i], __ATOMIC_ACQUIRE);
            if (address >= end) continue;
            uintptr_t page = address & ~(page_size - 1);
            int saved = errno;
            void *zeros = mmap((void *)page, (size_t)(end - page), PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
                               -1, 0);
            errno = saved;
            if (zeros != MAP_FAILED) {
                __atomic_store_n(&slot_faulted[i], 1, __ATOMIC_RELEASE);
                return; /* the faulting read runs again and finds zeros */
            }
            break;
        }
    }
    /* Not ours: what would have happened without this handler. */
    if (previous.sa_flags & SA_SIGINFO) {
        if (previous.sa_sigaction != NULL) {
            previous.sa_sigaction(sig, info, context);
            return;
        }
    } else if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN) {
        previous.sa_handler(sig);
        return;
    }
    struct sigaction fallback;
    memset(&fallback, 0, sizeof fallback);
    fallback.sa_handler = SIG_DFL;
    sigemptyset(&fallback.sa_mask);
    sigaction(sig, &fallback, NULL);
    if (info->si_code <= 0) raise(sig); /* a sent signal is not repeated by returning */
    /* A fault repeats when the read runs again, now with the default action. */
}

static int install_handler(void)
{
    if (installed) return 0;
    long size = sysconf(_SC_PAGESIZE);
    page_size = size > 0 ? (uintptr_t)size : 4096;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = on_sigbus;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    sigemptyset(&action.sa_mask);
    if (sigaction(SIGBUS, &action, &previous) != 0) {
        PyErr_SetFromErrno(PyExc_OSError);
        return -1;
    }
    installed = 1;
    return 0;
}

typedef struct {
    PyObject_HEAD
    char *data;
    Py_ssize_t size;
    int slot;
    Py_ssize_t exports;
} Mapping;

static PyObject *Mapping_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"fd", "size", NULL};
    int fd;
    Py_ssize_t size;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "in:Mapping", keywords, &fd, &size)) return NULL;
    if (size <= 0) {
        PyErr_SetString(PyExc_ValueError, "cannot map an empty file");
        return NULL;
    }
    if (install_handler() != 0) return NULL;
    void *data;
    Py_BEGIN_ALLOW_THREADS
    data = mmap(NULL, (size_t)size, PROT_READ, MAP_SHARED, fd, 0);
    Py_END_ALLOW_THREADS
    if (data == MAP_FAILED) return PyErr_SetFromErrno(PyExc_OSError);
    /* The slot is taken with the GIL held (the only writer), after the call that released it. */
    int slot = -1;
    for (int i = 0; i < SLOTS; i++) {
        int candidate = (next_slot + i) % SLOTS;
        if (__atomic_load_n(&slot_start[candidate], __ATOMIC_ACQUIRE) == 0) {
            slot = candidate;
            break;
        }
    }
    if (slot < 0) {
        munmap(data, (size_t)size);
        PyErr_SetString(PyExc_BufferError, "too many guarded mappings");
        return NULL;
    }
    Mapping *self = (Mapping *)type->tp_alloc(type, 0);
    if (self == NULL) {
        munmap(data, (size_t)size);
        return NULL;
    }
    self->data = (char *)data;
    self->size = size;
    self->slot = slot;
    self->exports = 0;
    uintptr_t start = (uintptr_t)data;
    uintptr_t end = (start + (uintptr_t)size + page_size - 1) & ~(page_size - 1);
    __atomic_store_n(&slot_faulted[slot], 0, __ATOMIC_RELEASE);
    __atomic_store_n(&slot_end[slot], end, __ATOMIC_RELEASE);
    __atomic_store_n(&slot_start[slot], start, __ATOMIC_RELEASE);
    next_slot = (slot + 1) % SLOTS;
    return (PyObject *)self;
}

static void Mapping_dealloc(Mapping *self)
{
    if (self->data != NULL) {
        /* Unregister first: once unmapped, the range may be reused by any other mapping. */
        __atomic_store_n(&slot_start[self->slot], 0, __ATOMIC_RELEASE);
        munmap(self->data, (size_t)self->size);
        self->data = NULL;
    }
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int Mapping_getbuffer(Mapping *self, Py_buffer *view, int flags)
{
    if (PyBuffer_FillInfo(view, (PyObject *)self, self->data, self->size, 1, flags) != 0) return -1;
    self->exports++;
    return 0;
}

static void Mapping_releasebuffer(Mapping *self, Py_buffer *view)
{
    (void)view;
    self->exports--;
}

static PyObject *Mapping_faulted(Mapping *self, void *closure)
{
    (void)closure;
    return PyBool_FromLong(__atomic_load_n(&slot_faulted[self->slot], __ATOMIC_ACQUIRE));
}

static PyObject *Mapping_size(Mapping *self, void *closure)
{
    (void)closure;
    return PyLong_FromSsize_t(self->size);
}

static PyGetSetDef Mapping_getset[] = {
    {"faulted", (getter)Mapping_faulted, NULL, "True once a read ran past the end of the (shrunk) file.", NULL},
    {"size", (getter)Mapping_size, NULL, "The mapped length in bytes.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyBufferProcs Mapping_as_buffer = {
    (getbufferproc)Mapping_getbuffer,
    (releasebufferproc)Mapping_releasebuffer,
};

static PyTypeObject MappingType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "autofuse_studio.core.dumps._mapguard.Mapping",
    .tp_basicsize = sizeof(Mapping),
    .tp_dealloc = (destructor)Mapping_dealloc,
    .tp_as_buffer = &Mapping_as_buffer,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "Mapping(fd, size): a read-only shared mapping whose reads past a shrunk file end give zeros.",
    .tp_getset = Mapping_getset,
    .tp_new = Mapping_new,
};

static PyObject *handler_installed(PyObject *module, PyObject *unused)
{
    (void)module;
    (void)unused;
    struct sigaction current;
    if (sigaction(SIGBUS, NULL, &current) != 0) return PyErr_SetFromErrno(PyExc_OSError);
    return PyBool_FromLong((current.sa_flags & SA_SIGINFO) && current.sa_sigaction == on_sigbus);
}

static PyMethodDef module_methods[] = {
    {"handler_installed", handler_installed, METH_NOARGS, "True while this module's SIGBUS handler is the one set."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef guard_module = {
    PyModuleDef_HEAD_INIT, "_mapguard", "Read-only file mappings that survive the file shrinking.", -1,
    module_methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__mapguard(void)
{
    if (PyType_Ready(&MappingType) < 0) return NULL;
    PyObject *module = PyModule_Create(&guard_module);
    if (module == NULL) return NULL;
    Py_INCREF(&MappingType);
    if (PyModule_AddObject(module, "Mapping", (PyObject *)&MappingType) < 0) {
        Py_DECREF(&MappingType);
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
