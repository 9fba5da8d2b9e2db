/*
 * Lines of values in JSON text (MPI-free).
 *
 * jansson keeps no positions for the values it decodes, but a message about
 * a value should name the line where it stands.  These helpers walk the
 * text that jansson has already accepted: a position is the first byte of
 * one value, and from it one can step to the value of a key of an object,
 * to an element of an array, or to the next element.  Strings (with their
 * escapes) and nested values are skipped without being decoded.  On text
 * that is not valid JSON they never read past its end; they just fail.
 */
#ifndef VINE_SELECT_JSONPOS_H
#define VINE_SELECT_JSONPOS_H

#include <stddef.h>

/* The start of one value of text[0, len). */
typedef struct vine_jsonpos {
    const char *text;
    size_t len;
    size_t off; /* the value's first byte */
    int line;   /* its line, from 1 */
} vine_jsonpos;

/* The top-level value of text (after any leading white space). */
vine_jsonpos vine__jsonpos_root(const char *text, size_t len);

/*
 * The value of key in the object at *obj: 0 with *out set, or -1 (*out
 * unchanged) when *obj is not an object or has no such key.  Keys are
 * compared after their escapes are decoded (UTF-8).
 */
int vine__jsonpos_key(const vine_jsonpos *obj, const char *key, vine_jsonpos *out);

/* Element i of the array at *arr: 0 with *out set, or -1. */
int vine__jsonpos_index(const vine_jsonpos *arr, size_t i, vine_jsonpos *out);

/* The element after *elem in its array: 0 with *out set, or -1 at the end. */
int vine__jsonpos_next(const vine_jsonpos *elem, vine_jsonpos *out);

#endif
