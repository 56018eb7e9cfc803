/*
 * Copyright 2026-present the original author or authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *      https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

/*
 * A Redis module that gives a Redis 7 server the native conditional delete of Redis 8.4,
 * for distlock's tests and benchmarks (no Redis 8.4 or Valkey 9 server is available where
 * they run; NativeDeleteModule compiles and loads this file):
 *
 *   DELEX key                   deletes the key, as DEL does
 *   DELEX key IFEQ value        deletes the key if it holds the string value
 *   DELEX key IFNE value        deletes the key if it holds a string other than the value
 *
 * Replies 1 if it deleted the key, else 0; WRONGTYPE if a condition meets a key that is not
 * a string, and a syntax error for any other form (Redis 8.4's IFDEQ and IFDNE, which
 * compare digests, are not played). A delete is replicated as DEL.
 *
 * The module API is reached as every module reaches it, by name through the function that
 * Redis puts first in the module's context; only the functions used here are declared.
 */

#include <stddef.h>
#include <string.h>
#include <strings.h>

#define MODULE_OK 0
#define MODULE_ERR 1
#define MODULE_APIVER_1 1
#define MODULE_READ (1 << 0)
#define MODULE_WRITE (1 << 1)
#define MODULE_KEYTYPE_EMPTY 0
#define MODULE_KEYTYPE_STRING 1
#define WRONGTYPE "WRONGTYPE Operation against a key holding the wrong kind of value"

typedef struct RedisModuleCtx RedisModuleCtx;
typedef struct RedisModuleKey RedisModuleKey;
typedef struct RedisModuleString RedisModuleString;
typedef int (*CommandFunction)(RedisModuleCtx *ctx, RedisModuleString **argv, int argc);

static int (*GetApi)(const char *name, void *function);
static void (*SetModuleAttribs)(RedisModuleCtx *ctx, const char *name, int ver, int apiver);
static int (*CreateCommand)(RedisModuleCtx *ctx, const char *name, CommandFunction function, const char *flags,
		int firstKey, int lastKey, int keyStep);
static int (*WrongArity)(RedisModuleCtx *ctx);
static int (*ReplyWithLongLong)(RedisModuleCtx *ctx, long long value);
static int (*ReplyWithError)(RedisModuleCtx *ctx, const char *error);
static RedisModuleKey *(*OpenKey)(RedisModuleCtx *ctx, RedisModuleString *name, int mode);
static void (*CloseKey)(RedisModuleKey *key);
static int (*KeyType)(RedisModuleKey *key);
static char *(*StringDMA)(RedisModuleKey *key, size_t *length, int mode);
static int (*DeleteKey)(RedisModuleKey *key);
static const char *(*StringPtrLen)(const RedisModuleString *string, size_t *length);
static int (*Replicate)(RedisModuleCtx *ctx, const char *command, const char *format, ...);

static int api(const char *name, void *function) {
	return GetApi(name, function) == MODULE_OK;
}

static int delex(RedisModuleCtx *ctx, RedisModuleString **argv, int argc) {
	if (argc != 2 && argc != 4) {
		return WrongArity(ctx);
	}
	int condition = 0; /* 0: none, 1: IFEQ, -1: IFNE */
	if (argc == 4) {
		const char *word = StringPtrLen(argv[2], NULL);
		if (strcasecmp(word, "IFEQ") == 0) {
			condition = 1;
		}
		else if (strcasecmp(word, "IFNE") == 0) {
			condition = -1;
		}
		else {
			return ReplyWithError(ctx, "ERR syntax error");
		}
	}
	RedisModuleKey *key = OpenKey(ctx, argv[1], MODULE_READ | MODULE_WRITE);
	int type = KeyType(key);
	if (type == MODULE_KEYTYPE_EMPTY) {
		CloseKey(key);
		return ReplyWithLongLong(ctx, 0);
	}
	if (condition != 0) {
		if (type != MODULE_KEYTYPE_STRING) {
			CloseKey(key);
			return ReplyWithError(ctx, WRONGTYPE);
		}
		size_t heldLength;
		size_t valueLength;
		const char *held = StringDMA(key, &heldLength, MODULE_READ);
		const char *value = StringPtrLen(argv[3], &valueLength);
		int equal = heldLength == valueLength && memcmp(held, value, valueLength) == 0;
		if (equal != (condition == 1)) {
			CloseKey(key);
			return ReplyWithLongLong(ctx, 0);
		}
	}
	DeleteKey(key);
	CloseKey(key);
	Replicate(ctx, "DEL", "s", argv[1]);
	return ReplyWithLongLong(ctx, 1);
}

int RedisModule_OnLoad(RedisModuleCtx *ctx, RedisModuleString **argv, int argc) {
	(void) argv;
	(void) argc;
	GetApi = (int (*)(const char *, void *)) ((void **) ctx)[0];
	if (!(api("RedisModule_SetModuleAttribs", &SetModuleAttribs) && api("RedisModule_CreateCommand", &CreateCommand)
			&& api("RedisModule_WrongArity", &WrongArity) && api("RedisModule_ReplyWithLongLong", &ReplyWithLongLong)
			&& api("RedisModule_ReplyWithError", &ReplyWithError) && api("RedisModule_OpenKey", &OpenKey)
			&& api("RedisModule_CloseKey", &CloseKey) && api("RedisModule_KeyType", &KeyType)
			&& api("RedisModule_StringDMA", &StringDMA) && api("RedisModule_DeleteKey", &DeleteKey)
			&& api("RedisModule_StringPtrLen", &StringPtrLen) && api("RedisModule_Replicate", &Replicate))) {
		return MODULE_ERR;
	}
	SetModuleAttribs(ctx, "distlock-delex", 1, MODULE_APIVER_1);
	return CreateCommand(ctx, "delex", delex, "write fast", 1, 1, 1);
}
