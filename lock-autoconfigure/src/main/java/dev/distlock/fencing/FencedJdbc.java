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

package dev.distlock.fencing;

import java.sql.DatabaseMetaData;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import javax.sql.DataSource;

import org.jspecify.annotations.Nullable;

import org.springframework.dao.DuplicateKeyException;
import org.springframework.dao.EmptyResultDataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.jdbc.support.JdbcUtils;
import org.springframework.jdbc.support.MetaDataAccessException;
import org.springframework.util.Assert;
import org.springframework.util.function.SingletonSupplier;

import dev.distlock.LockHandle;

/**
 * Fenced writes to a database: each runs one statement that writes a row only if the
 * fencing token stored in the row is not above the writer's, and stores the writer's
 * token with the write: <pre class="code">
 * &#64;DistributedLock(key = "'lock:account:' + #id")
 * public void debit(long id, long cents) {
 *     fencedJdbc.update("account")
 *         .setExpression("balance", "balance - :cents").param("cents", cents)
 *         .where("id", id)
 *         .execute();   // UPDATE account SET balance = balance - ?, fence = ?
 *                       //  WHERE id = ? AND (fence &lt;= ? OR fence IS NULL)
 * }
 * </pre> The token is the one of the lock held by the current
 * {@link dev.distlock.DistributedLock @DistributedLock} method
 * ({@link dev.distlock.LockContext}); {@link #under(LockHandle)} names a programmatic
 * hold instead. A write whose token is below the stored one (a later holder of the lock
 * has written) writes nothing and throws {@link StaleFencingTokenException}, after
 * telling the {@link FencedWriteListener}. A hold's own writes all carry its token, so a
 * locked method may write the same row more than once: the stored token is compared with
 * {@code <=}, and only a higher token (a later grant) shuts a holder out.
 * <p>
 * The table needs a fence column ({@value #DEFAULT_FENCE_COLUMN} unless
 * {@link #withFenceColumn(String) named otherwise}), {@code BIGINT NOT NULL DEFAULT 0} (a
 * {@code NULL} fence counts as no token), and, for {@link #upsert(String)}, a primary key
 * or unique constraint on the key columns. Table and column names are plain SQL
 * identifiers (letters, digits, underscores; a table may be qualified by its schema);
 * values are always bound as parameters. Statements run through a {@link JdbcTemplate},
 * so in the transaction of the caller, if any.
 */
public final class FencedJdbc {

	/** Name of the fence column unless another is given. */
	public static final String DEFAULT_FENCE_COLUMN = "fence";

	static final String STORE = "jdbc";

	private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

	private static final Pattern TABLE = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)?");

	private static final String TOKEN = "distlock_token";

	private final NamedParameterJdbcTemplate jdbc;

	private final FencedWriteListener listener;

	private final Supplier<Dialect> dialect;

	private final String fenceColumn;

	private final @Nullable LockHandle handle;

	private final @Nullable String lockKey;

	/**
	 * Creates fenced writes to a data source, telling no listener of refusals.
	 * @param dataSource the database
	 */
	public FencedJdbc(DataSource dataSource) {
		this(new JdbcTemplate(dataSource), FencedWriteListener.NONE);
	}

	/**
	 * Creates fenced writes through a {@link JdbcTemplate}.
	 * @param jdbcTemplate the template to run the statements with; it must have a data
	 * source
	 * @param listener told of every refused write
	 */
	public FencedJdbc(JdbcTemplate jdbcTemplate, FencedWriteListener listener) {
		this(new NamedParameterJdbcTemplate(jdbcTemplate), listener,
				SingletonSupplier.of(() -> dialectOf(jdbcTemplate)), DEFAULT_FENCE_COLUMN, null, null);
	}

	private FencedJdbc(NamedParameterJdbcTemplate jdbc, FencedWriteListener listener, Supplier<Dialect> dialect,
			String fenceColumn, @Nullable LockHandle handle, @Nullable String lockKey) {
		this.jdbc = jdbc;
		this.listener = listener;
		this.dialect = dialect;
		this.fenceColumn = fenceColumn;
		this.handle = handle;
		this.lockKey = lockKey;
	}

	/**
	 * Returns fenced writes that keep the token in another column.
	 * @param column the fence column
	 * @return fenced writes to that column, the rest unchanged
	 */
	public FencedJdbc withFenceColumn(String column) {
		return new FencedJdbc(this.jdbc, this.listener, this.dialect, identifier(column, "fence column"), this.handle,
				this.lockKey);
	}

	/**
	 * Returns fenced writes made under a programmatic hold (from
	 * {@link dev.distlock.LockClient}) rather than the current locked method's.
	 * @param handle the hold whose token to write
	 * @return fenced writes under that hold, the rest unchanged
	 */
	public FencedJdbc under(LockHandle handle) {
		Assert.notNull(handle, "handle must not be null");
		return new FencedJdbc(this.jdbc, this.listener, this.dialect, this.fenceColumn, handle, this.lockKey);
	}

	/**
	 * Returns fenced writes that take the token of one key of a lock of several keys.
	 * @param key the Redis key of the lock that protects the rows, as
	 * {@link LockHandle#keys()} reports it (with {@code distlock.key-prefix})
	 * @return fenced writes with that key's token, the rest unchanged
	 */
	public FencedJdbc forLockKey(String key) {
		Assert.hasText(key, "key must not be empty");
		return new FencedJdbc(this.jdbc, this.listener, this.dialect, this.fenceColumn, this.handle, key);
	}

	/**
	 * Starts a fenced update of existing rows.
	 * @param table the table, optionally qualified by its schema
	 * @return the update to describe and {@link Update#execute() execute}
	 */
	public Update update(String table) {
		return new Update(table(table));
	}

	/**
	 * Starts a fenced insert-or-update of a row that may not exist yet.
	 * @param table the table, optionally qualified by its schema; its key columns must
	 * have a primary key or unique constraint
	 * @return the upsert to describe and {@link Upsert#execute() execute}
	 */
	public Upsert upsert(String table) {
		return new Upsert(table(table));
	}

	private StaleFencingTokenException refused(String table, Map<String, @Nullable Object> key, FencedHold hold,
			@Nullable Long stored) {
		StaleFencingTokenException refusal = new StaleFencingTokenException(STORE, describe(table, key), hold.token(),
				stored, hold.lockKey(), hold.lockName());
		this.listener.refused(refusal);
		return refusal;
	}

	/**
	 * Reads the stored fence of the rows with a key (0 for a {@code NULL} fence): empty
	 * if there is no such row.
	 */
	private List<Long> storedFence(String table, Map<String, @Nullable Object> key,
			Map<String, @Nullable Object> params) {
		String sql = "SELECT " + this.fenceColumn + " FROM " + table + " WHERE " + keyCondition(key, null);
		return this.jdbc.query(sql, params, (rs, row) -> {
			return rs.getLong(1);
		});
	}

	private String fenceCondition(@Nullable String alias, String token) {
		String column = (alias != null) ? alias + "." + this.fenceColumn : this.fenceColumn;
		return "(" + column + " <= " + token + " OR " + column + " IS NULL)";
	}

	private static String keyCondition(Map<String, @Nullable Object> key, @Nullable String alias) {
		List<String> conditions = new ArrayList<>();
		int i = 0;
		for (String column : key.keySet()) {
			conditions.add(((alias != null) ? alias + "." : "") + column + " = :distlock_key" + i++);
		}
		return String.join(" AND ", conditions);
	}

	private static void bindKey(Map<String, @Nullable Object> key, Map<String, @Nullable Object> params) {
		int i = 0;
		for (Object value : key.values()) {
			params.put("distlock_key" + i++, value);
		}
	}

	private static String describe(String table, Map<String, @Nullable Object> key) {
		return "table " + table + " row "
				+ key.entrySet()
					.stream()
					.map((entry) -> entry.getKey() + " = " + entry.getValue())
					.collect(Collectors.joining(", ", "(", ")"));
	}

	private static String identifier(String name, String what) {
		Assert.isTrue(name != null && IDENTIFIER.matcher(name).matches(), () -> "The " + what + " '" + name
				+ "' is not a plain SQL identifier (letters, digits and underscores, not starting with a digit)");
		return name;
	}

	private static String table(String name) {
		Assert.isTrue(name != null && TABLE.matcher(name).matches(),
				() -> "The table '" + name
						+ "' is not a plain SQL identifier, optionally qualified by its schema (letters, digits and "
						+ "underscores, not starting with a digit)");
		return name;
	}

	private static Dialect dialectOf(JdbcTemplate jdbcTemplate) {
		DataSource dataSource = jdbcTemplate.getDataSource();
		if (dataSource == null) {
			throw new IllegalStateException("FencedJdbc needs a JdbcTemplate with a DataSource");
		}
		try {
			String product = JdbcUtils.extractDatabaseMetaData(dataSource, DatabaseMetaData::getDatabaseProductName);
			return Dialect.of(product);
		}
		catch (MetaDataAccessException ex) {
			throw new IllegalStateException("FencedJdbc could not read the database product name for an upsert", ex);
		}
	}

	/**
	 * How an insert-or-update is written for a database.
	 */
	enum Dialect {

		/** {@code INSERT ... ON CONFLICT (key) DO UPDATE ... WHERE fence <= token}. */
		POSTGRESQL,

		/**
		 * {@code MERGE INTO ... WHEN MATCHED AND fence <= token ... WHEN NOT MATCHED}.
		 */
		MERGE,

		/**
		 * A fenced update, then an insert if no row has the key, then the fenced update
		 * again if another writer inserted the row first.
		 */
		UPDATE_THEN_INSERT;

		static Dialect of(@Nullable String product) {
			if (product == null) {
				return UPDATE_THEN_INSERT;
			}
			if (product.equals("PostgreSQL")) {
				return POSTGRESQL;
			}
			if (product.equals("H2")) {
				return MERGE;
			}
			return UPDATE_THEN_INSERT;
		}

	}

	/**
	 * A fenced update of the rows with a key: {@code UPDATE table SET ..., fence = :token
	 * WHERE key = :key AND (fence <= :token OR fence IS NULL)}.
	 */
	public final class Update {

		private final String table;

		private final Map<String, String> assignments = new LinkedHashMap<>();

		private final Map<String, @Nullable Object> key = new LinkedHashMap<>();

		private final Map<String, @Nullable Object> params = new LinkedHashMap<>();

		private Update(String table) {
			this.table = table;
		}

		/**
		 * Sets a column to a value, bound as a parameter.
		 * @param column the column
		 * @param value the value
		 * @return this update
		 */
		public Update set(String column, @Nullable Object value) {
			String name = "distlock_set" + this.assignments.size();
			this.assignments.put(identifier(column, "column"), ":" + name);
			this.params.put(name, value);
			return this;
		}

		/**
		 * Sets a column to an SQL expression, such as {@code balance - :cents}; bind the
		 * expression's named parameters with {@link #param(String, Object)}.
		 * @param column the column
		 * @param expression the SQL expression, written by the application (never from
		 * user input)
		 * @return this update
		 */
		public Update setExpression(String column, String expression) {
			Assert.hasText(expression, "expression must not be empty");
			this.assignments.put(identifier(column, "column"), "(" + expression + ")");
			return this;
		}

		/**
		 * Binds a named parameter of an expression.
		 * @param name the parameter's name, without the colon; names starting with
		 * {@code distlock_} are reserved
		 * @param value the value
		 * @return this update
		 */
		public Update param(String name, @Nullable Object value) {
			Assert.isTrue(!name.startsWith("distlock_"), () -> "Parameter names starting with distlock_ are "
					+ "reserved for FencedJdbc's own parameters: rename '" + name + "'");
			this.params.put(name, value);
			return this;
		}

		/**
		 * Adds a key column that the rows to update must match; several are joined with
		 * {@code AND}.
		 * @param column the key column
		 * @param value the value it must have
		 * @return this update
		 */
		public Update where(String column, Object value) {
			this.key.put(identifier(column, "key column"), value);
			return this;
		}

		/**
		 * Runs the update under the current hold's fencing token.
		 * @return the number of rows updated, at least 1
		 * @throws StaleFencingTokenException if a row has the key but a higher token
		 * @throws EmptyResultDataAccessException if no row has the key
		 * @throws IllegalStateException if no lock is held on this thread and no handle
		 * was given
		 * @throws LeaseLostBeforeWriteException if the hold's lease is lost (nothing is
		 * sent)
		 */
		public int execute() {
			Assert.state(!this.assignments.isEmpty(), () -> "Name at least one column to set in the fenced update of "
					+ this.table + ": set(column, value) or setExpression(column, expression)");
			Assert.state(!this.key.isEmpty(), () -> "Name the key of the rows to update in the fenced update of "
					+ this.table + ": where(column, value)");
			Assert.state(!this.assignments.containsKey(FencedJdbc.this.fenceColumn), () -> "The fenced update of "
					+ this.table + " sets the fence column " + FencedJdbc.this.fenceColumn + " itself; do not set it");
			FencedHold hold = FencedHold.resolve(FencedJdbc.this.handle, FencedJdbc.this.lockKey,
					"the fenced update of " + describe(this.table, this.key));
			Map<String, @Nullable Object> params = new LinkedHashMap<>(this.params);
			bindKey(this.key, params);
			params.put(TOKEN, hold.token());
			String sql = "UPDATE " + this.table + " SET "
					+ this.assignments.entrySet()
						.stream()
						.map((entry) -> entry.getKey() + " = " + entry.getValue())
						.collect(Collectors.joining(", "))
					+ ", " + FencedJdbc.this.fenceColumn + " = :" + TOKEN + " WHERE " + keyCondition(this.key, null)
					+ " AND " + fenceCondition(null, ":" + TOKEN);
			int updated = FencedJdbc.this.jdbc.update(sql, params);
			if (updated > 0) {
				return updated;
			}
			List<@Nullable Long> stored = storedFence(this.table, this.key, params);
			Long higher = stored.stream()
				.filter((fence) -> fence != null && fence > hold.token())
				.findFirst()
				.orElse(null);
			if (higher == null) {
				throw new EmptyResultDataAccessException(
						"The fenced update of " + describe(this.table, this.key)
								+ " found no row with that key; use FencedJdbc.upsert for rows that may not exist yet",
						1);
			}
			throw refused(this.table, this.key, hold, higher);
		}

	}

	/**
	 * A fenced insert-or-update of the row with a key: the row is inserted with the
	 * writer's token if no row has the key, and updated as by {@link Update} if one does.
	 */
	public final class Upsert {

		private final String table;

		private final Map<String, @Nullable Object> key = new LinkedHashMap<>();

		private final Map<String, @Nullable Object> values = new LinkedHashMap<>();

		private Upsert(String table) {
			this.table = table;
		}

		/**
		 * Adds a key column of the row; the key columns must have a primary key or unique
		 * constraint.
		 * @param column the key column
		 * @param value its value
		 * @return this upsert
		 */
		public Upsert key(String column, Object value) {
			this.key.put(identifier(column, "key column"), value);
			return this;
		}

		/**
		 * Sets a column of the row, inserted or updated, to a value.
		 * @param column the column
		 * @param value the value
		 * @return this upsert
		 */
		public Upsert set(String column, @Nullable Object value) {
			this.values.put(identifier(column, "column"), value);
			return this;
		}

		/**
		 * Runs the insert-or-update under the current hold's fencing token.
		 * @throws StaleFencingTokenException if the row exists with a higher token
		 * @throws IllegalStateException if no lock is held on this thread and no handle
		 * was given
		 * @throws LeaseLostBeforeWriteException if the hold's lease is lost (nothing is
		 * sent)
		 */
		public void execute() {
			Assert.state(!this.key.isEmpty(),
					() -> "Name the key of the row in the fenced upsert of " + this.table + ": key(column, value)");
			Assert.state(!this.values.isEmpty(), () -> "Name at least one column to set in the fenced upsert of "
					+ this.table + ": set(column, value)");
			String fence = FencedJdbc.this.fenceColumn;
			Assert.state(!this.values.containsKey(fence) && !this.key.containsKey(fence), () -> "The fenced upsert of "
					+ this.table + " sets the fence column " + fence + " itself; do not set it");
			FencedHold hold = FencedHold.resolve(FencedJdbc.this.handle, FencedJdbc.this.lockKey,
					"the fenced upsert of " + describe(this.table, this.key));
			Map<String, @Nullable Object> params = new LinkedHashMap<>();
			bindKey(this.key, params);
			int i = 0;
			for (Object value : this.values.values()) {
				params.put("distlock_set" + i++, value);
			}
			params.put(TOKEN, hold.token());
			int written = switch (FencedJdbc.this.dialect.get()) {
				case POSTGRESQL -> FencedJdbc.this.jdbc.update(insertOnConflict(), params);
				case MERGE -> merge(params);
				case UPDATE_THEN_INSERT -> updateThenInsert(params, hold.token());
			};
			if (written == 0) {
				List<Long> stored = storedFence(this.table, this.key, params);
				throw refused(this.table, this.key, hold, stored.isEmpty() ? null : stored.get(0));
			}
		}

		private String insertOnConflict() {
			String fence = FencedJdbc.this.fenceColumn;
			return "INSERT INTO " + this.table + " AS distlock_row (" + columns() + ") VALUES (" + placeholders()
					+ ") ON CONFLICT (" + String.join(", ", this.key.keySet()) + ") DO UPDATE SET "
					+ this.values.keySet()
						.stream()
						.map((column) -> column + " = EXCLUDED." + column)
						.collect(Collectors.joining(", "))
					+ ", " + fence + " = EXCLUDED." + fence + " WHERE "
					+ fenceCondition("distlock_row", "EXCLUDED." + fence);
		}

		/**
		 * A MERGE that two writers of a new key may both find unmatched: the second
		 * insert fails on the key's constraint, and the merge is run again to update the
		 * row the first one inserted.
		 */
		private int merge(Map<String, @Nullable Object> params) {
			String fence = FencedJdbc.this.fenceColumn;
			String sql = "MERGE INTO " + this.table + " distlock_row USING (VALUES (" + placeholders()
					+ ")) distlock_new (" + columns() + ") ON "
					+ this.key.keySet()
						.stream()
						.map((column) -> "distlock_row." + column + " = distlock_new." + column)
						.collect(Collectors.joining(" AND "))
					+ " WHEN MATCHED AND " + fenceCondition("distlock_row", "distlock_new." + fence)
					+ " THEN UPDATE SET "
					+ this.values.keySet()
						.stream()
						.map((column) -> column + " = distlock_new." + column)
						.collect(Collectors.joining(", "))
					+ ", " + fence + " = distlock_new." + fence + " WHEN NOT MATCHED THEN INSERT (" + columns()
					+ ") VALUES (" + this.keyValueAndFenceColumns("distlock_new.") + ")";
			try {
				return FencedJdbc.this.jdbc.update(sql, params);
			}
			catch (DuplicateKeyException ex) {
				return FencedJdbc.this.jdbc.update(sql, params);
			}
		}

		/**
		 * A fenced update; if it wrote nothing and no row has the key, an insert; if
		 * another writer inserted the row in between (a duplicate key, or a row that
		 * appeared after the update with a token not above ours), the fenced update
		 * again. For databases whose failed statement does not abort the transaction,
		 * such as MariaDB and MySQL. Returns 0 only when a row with a higher token was
		 * seen.
		 */
		private int updateThenInsert(Map<String, @Nullable Object> params, long token) {
			String fence = FencedJdbc.this.fenceColumn;
			String update = "UPDATE " + this.table + " SET " + assignments() + ", " + fence + " = :" + TOKEN + " WHERE "
					+ keyCondition(this.key, null) + " AND " + fenceCondition(null, ":" + TOKEN);
			String insert = "INSERT INTO " + this.table + " (" + columns() + ") VALUES (" + placeholders() + ")";
			for (int attempt = 1;; attempt++) {
				int updated = FencedJdbc.this.jdbc.update(update, params);
				if (updated > 0) {
					return updated;
				}
				List<Long> stored = storedFence(this.table, this.key, params);
				if (stored.stream().anyMatch((storedToken) -> storedToken > token)) {
					return 0;
				}
				if (stored.isEmpty()) {
					try {
						return FencedJdbc.this.jdbc.update(insert, params);
					}
					catch (DuplicateKeyException ex) {
						if (attempt >= 3) {
							throw ex;
						}
					}
				}
				else if (attempt >= 3) {
					throw new IllegalStateException("The fenced upsert of " + describe(this.table, this.key)
							+ " found the row with a token not above its own, yet updated nothing, three times");
				}
			}
		}

		private String assignments() {
			List<String> assignments = new ArrayList<>();
			int i = 0;
			for (String column : this.values.keySet()) {
				assignments.add(column + " = :distlock_set" + i++);
			}
			return String.join(", ", assignments);
		}

		/** The key columns, the value columns and the fence column, in that order. */
		private String columns() {
			List<String> columns = new ArrayList<>(this.key.keySet());
			columns.addAll(this.values.keySet());
			columns.add(FencedJdbc.this.fenceColumn);
			return String.join(", ", columns);
		}

		/** The parameters of {@link #columns()}. */
		private String placeholders() {
			List<String> placeholders = new ArrayList<>();
			for (int i = 0; i < this.key.size(); i++) {
				placeholders.add(":distlock_key" + i);
			}
			for (int i = 0; i < this.values.size(); i++) {
				placeholders.add(":distlock_set" + i);
			}
			placeholders.add(":" + TOKEN);
			return String.join(", ", placeholders);
		}

		private String keyValueAndFenceColumns(String prefix) {
			return List.of(columns().split(", "))
				.stream()
				.map((column) -> prefix + column)
				.collect(Collectors.joining(", "));
		}

	}

}
