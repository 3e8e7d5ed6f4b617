/**
 * The manifest the describe tests of SQLite and MySQL check (test/sqlite/describe.test.ts,
 * test/mysql/describe.test.ts): a list with a count, and a lookup answered with a declared schema.
 * Line 11 holds the heredoc's SELECT, line 35 the lookup's query (the assertions name lines and
 * columns); `extra` is line 4, inside the connection block.
 */
export function describedManifest(kind: 'sqlite' | 'mysql', url: string, select: string, extra = '', where = 'priority >= @min'): string {
  return [
    `connection "${kind}" "db" {`, // 1
    `  url        = "${url}"`, // 2
    '  migrations = "migrations"', // 3
    extra, // 4
    '}', // 5
    '', // 6
    'endpoint "GET /issues" {', // 7
    '  pipeline {', // 8
    '    sql "list" {', // 9
    '      query = <<-SQL', // 10
    `        ${select}`, // 11
    '          FROM issues', // 12
    `         WHERE ${where}`, // 13
    '      SQL', // 14
    '      args  = { min = 0 }', // 15
    '    }', // 16
    '    sql "count" {', // 17
    '      query = "SELECT count(*) AS n, max(priority) AS top FROM issues"', // 18
    '    }', // 19
    '    respond {', // 20
    '      body = { items = steps.list.rows, total = steps.count.row.n }', // 21
    '    }', // 22
    '  }', // 23
    '}', // 24
    '', // 25
    'schema "Issue" {', // 26
    '  field "id"    { type = integer }', // 27
    '  field "title" { type = integer }', // 28
    '  field "owner" { type = string }', // 29
    '}', // 30
    '', // 31
    'endpoint "GET /issues/{id}" {', // 32
    '  pipeline {', // 33
    '    sql "get" {', // 34
    '      query = "SELECT i.id, i.title, o.title AS other FROM issues i LEFT JOIN issues o ON o.id = i.id + 1 WHERE i.id = @id"', // 35
    '      args  = { id = ctx.request.path.id }', // 36
    '    }', // 37
    '    respond {', // 38
    '      schema = schema.Issue', // 39
    '      body   = steps.get.row', // 40
    '    }', // 41
    '  }', // 42
    '}', // 43
    '',
  ].join('\n');
}
