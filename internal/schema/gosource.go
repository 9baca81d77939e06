// Schemas declared in Go: goose's Go migrations (the constant DDL their up functions run)
// and the models of GORM, bun and ent (struct tags and ent's Fields and Indexes). Read from
// the syntax alone, as the SQL files are from their text: no type information, so names are
// what the declarations spell and the ORMs' own naming rules give.

package schema

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
)

// declaresGo reports whether a Go file may declare schema: a quick test of its text before
// it is parsed.
func declaresGo(text string) bool {
	return strings.Contains(text, "gorm:\"") || strings.Contains(text, "bun:\"") ||
		strings.Contains(text, "entgo.io/ent\"") || strings.Contains(text, "TableName() string") ||
		(strings.Contains(text, "pressly/goose") && declares(text))
}

// ormTable is a table an ORM model declares, kept aside until every SQL file is read: the
// migrations are what the database has, so a model adds only a table they do not declare.
type ormTable struct {
	t *Table
	// byName: the model's table name was derived from its type's name (no TableName method,
	// bun table: tag or ent annotation named one), so a TableName method read later renames it.
	typeName string
	byName   bool
	dir      string // the directory of the file that declares it
}

// addGo reads the schema one Go file declares.
func (s *Schema) addGo(file string, src []byte) error {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, src, parser.SkipObjectResolution)
	if err != nil {
		return err
	}
	s.Files = append(s.Files, file)
	pos := func(p token.Pos) Pos { return Pos{File: file, Line: fset.Position(p).Line} }
	imports := map[string]string{} // local name -> path
	for _, im := range f.Imports {
		path, _ := strconv.Unquote(im.Path.Value)
		name := path[strings.LastIndexByte(path, '/')+1:]
		if strings.HasPrefix(name, "v") && len(name) <= 3 { // goose/v3
			p := strings.TrimSuffix(path, "/"+name)
			name = p[strings.LastIndexByte(p, '/')+1:]
		}
		if im.Name != nil {
			name = im.Name.Name
		}
		imports[name] = path
	}
	importsPath := func(prefix string) string {
		for name, p := range imports {
			if strings.HasPrefix(p, prefix) {
				return name
			}
		}
		return ""
	}
	if goose := importsPath("github.com/pressly/goose"); goose != "" {
		s.gooseMigrations(f, goose, pos, fset)
	}
	dir := filepath.Dir(file)
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs // as the analyzer's file set names the type's file
	}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok {
			s.tableNameMethod(dir, fd)
		}
	}
	for _, ts := range structTypes(f) {
		st := ts.Type.(*ast.StructType)
		if t := gormModel(ts.Name.Name, st, pos); t != nil {
			s.orm = append(s.orm, ormTable{t: t, typeName: ts.Name.Name, byName: true, dir: dir})
		}
		if t, named := bunModel(ts.Name.Name, st, pos); t != nil {
			s.orm = append(s.orm, ormTable{t: t, typeName: ts.Name.Name, byName: !named, dir: dir})
		}
	}
	if ent := importsPath("entgo.io/ent"); ent != "" {
		s.entSchemas(f, pos)
	}
	return nil
}

// gooseMigrations reads the constant DDL of a goose Go migration's up functions: the
// functions a goose.AddMigration* call registers first (the second is the down), or, where
// no registration names them, every function whose name does not start with down.
func (s *Schema) gooseMigrations(f *ast.File, goose string, pos func(token.Pos) Pos, fset *token.FileSet) {
	up, down := map[string]bool{}, map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok || !isIdent(sel.X, goose) || !strings.HasPrefix(sel.Sel.Name, "AddMigration") && !strings.HasPrefix(sel.Sel.Name, "AddNamedMigration") {
			return true
		}
		args := call.Args
		if strings.HasPrefix(sel.Sel.Name, "AddNamed") && len(args) > 0 {
			args = args[1:]
		}
		for i, a := range args {
			if id, ok := a.(*ast.Ident); ok {
				if i == 0 {
					up[id.Name] = true
				} else {
					down[id.Name] = true
				}
			}
		}
		return true
	})
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil || fd.Recv != nil || down[fd.Name.Name] {
			continue
		}
		if len(up) == 0 && strings.HasPrefix(strings.ToLower(fd.Name.Name), "down") || len(up) > 0 && !up[fd.Name.Name] {
			continue
		}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			e, ok := n.(ast.Expr)
			if !ok {
				return true
			}
			text, at, ok := constText(e)
			if !ok {
				return true
			}
			if declares(text) {
				s.addText(pos(at).File, text, fset.Position(at).Line-1, rawString(e))
			}
			return false
		})
	}
}

// constText is the text of a string literal or a concatenation of them, and where it starts.
func constText(e ast.Expr) (string, token.Pos, bool) {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind != token.STRING {
			return "", 0, false
		}
		s, err := strconv.Unquote(e.Value)
		return s, e.Pos(), err == nil
	case *ast.ParenExpr:
		return constText(e.X)
	case *ast.BinaryExpr:
		if e.Op != token.ADD {
			return "", 0, false
		}
		x, at, ok := constText(e.X)
		y, _, ok2 := constText(e.Y)
		return x + y, at, ok && ok2
	}
	return "", 0, false
}

// rawString reports whether e is a raw string literal, whose lines are the source's.
func rawString(e ast.Expr) bool {
	lit, ok := e.(*ast.BasicLit)
	return ok && strings.HasPrefix(lit.Value, "`")
}

func isIdent(e ast.Expr, name string) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == name
}

// tableNameMethod records func (T) TableName() string { return "name" } in directory dir:
// GORM's (and bun's schema-less) way to name a model's table.
func (s *Schema) tableNameMethod(dir string, fd *ast.FuncDecl) {
	if fd.Recv == nil || len(fd.Recv.List) != 1 || fd.Name.Name != "TableName" || fd.Body == nil || len(fd.Body.List) != 1 {
		return
	}
	ret, ok := fd.Body.List[0].(*ast.ReturnStmt)
	if !ok || len(ret.Results) != 1 {
		return
	}
	name, _, ok := constText(ret.Results[0])
	if !ok || name == "" {
		return
	}
	if recv := receiverName(fd); recv != "" {
		s.tableNames[typeKey(dir, recv)] = normName(name)
		noteByName(s.tableNames, recv, normName(name))
	}
}

// receiverName is the name of a method's receiver type (T for func (*T) M()), or "".
func receiverName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) != 1 {
		return ""
	}
	recv := fd.Recv.List[0].Type
	if star, ok := recv.(*ast.StarExpr); ok {
		recv = star.X
	}
	if id, ok := recv.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// structTypes returns the struct types a file declares.
func structTypes(f *ast.File) []*ast.TypeSpec {
	var out []*ast.TypeSpec
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok {
			continue
		}
		for _, sp := range g.Specs {
			if ts, ok := sp.(*ast.TypeSpec); ok {
				if _, ok := ts.Type.(*ast.StructType); ok {
					out = append(out, ts)
				}
			}
		}
	}
	return out
}

// gormModel is the table a GORM model declares, or nil for a struct that is none (no gorm
// tag and no embedded gorm.Model). The primary key is the primaryKey fields, else a field
// named ID; an integer primary key of one column is auto-incremented, as GORM makes it.
func gormModel(typeName string, st *ast.StructType, pos func(token.Pos) Pos) *Table {
	isModel := false
	for _, f := range st.Fields.List {
		if tagValue(f, "gorm") != "" || len(f.Names) == 0 && isSel(f.Type, "gorm", "Model") {
			isModel = true
		}
	}
	if !isModel {
		return nil
	}
	t := &Table{Name: Plural(SnakeCase(typeName)), At: pos(st.Pos()), Fresh: map[string]string{}}
	var primary []string
	primaryAt := st.Pos()
	idField := ""
	var idAt token.Pos
	integer := map[string]bool{}
	groups := map[string]*Key{}
	var order []string
	for _, f := range st.Fields.List {
		tag := tagValue(f, "gorm")
		if tag == "-" {
			continue
		}
		if len(f.Names) == 0 {
			if isSel(f.Type, "gorm", "Model") {
				idField, idAt = "id", f.Pos()
				integer["id"] = true
			}
			continue
		}
		settings := gormSettings(tag)
		for _, n := range f.Names {
			if !n.IsExported() {
				continue
			}
			col := SnakeCase(n.Name)
			if c := settings["COLUMN"]; c != "" {
				col = normColumn(c)
			}
			if isIntType(f.Type) {
				integer[col] = true
			}
			if n.Name == "ID" {
				idField, idAt = col, f.Pos()
			}
			_, pk := settings["PRIMARYKEY"]
			if _, ok := settings["PRIMARY_KEY"]; ok {
				pk = true
			}
			if pk {
				primary = append(primary, col)
				primaryAt = f.Pos()
			}
			if _, ok := settings["AUTOINCREMENT"]; ok {
				t.Fresh[col] = "autoIncrement"
			}
			if def := settings["DEFAULT"]; def != "" {
				if fresh := freshDefault(strings.ToLower(strings.TrimSuffix(def, "()")), strings.HasSuffix(def, ")")); fresh != "" {
					t.Fresh[col] = fresh
				}
			}
			if _, ok := settings["UNIQUE"]; ok {
				t.Keys = append(t.Keys, Key{Name: "uni_" + t.Name + "_" + col, Columns: []string{col}, At: pos(f.Pos())})
			}
			for _, k := range []string{"UNIQUEINDEX", "INDEX"} {
				v, ok := settings[k]
				if !ok {
					continue
				}
				name, opts, _ := strings.Cut(v, ",")
				lopts := strings.ToLower(opts)
				if k == "INDEX" && !strings.Contains(lopts, "unique") {
					continue
				}
				where, indexed := "", col
				for _, o := range strings.Split(opts, ",") {
					if ok, w := cutFold(o, "where:"); ok {
						where = strings.TrimSpace(w)
					}
					if ok, x := cutFold(o, "expression:"); ok {
						// An index on an expression of the column (model->>'order_uid'), as
						// the SQL reader names one: its text without spaces.
						indexed = normColumn(x)
					}
				}
				if name == "" {
					name = "idx_" + t.Name + "_" + col
				}
				if g := groups[name]; g != nil {
					g.Columns = append(g.Columns, indexed)
					continue
				}
				groups[name] = &Key{Name: name, Columns: []string{indexed}, Partial: where, Index: true, At: pos(f.Pos())}
				order = append(order, name)
			}
		}
	}
	if len(primary) == 0 && idField != "" {
		primary, primaryAt = []string{idField}, idAt
	}
	if len(primary) > 0 {
		t.Keys = append([]Key{{Name: t.Name + "_pkey", Columns: primary, Primary: true, At: pos(primaryAt)}}, t.Keys...)
		if len(primary) == 1 && integer[primary[0]] {
			if _, set := t.Fresh[primary[0]]; !set {
				t.Fresh[primary[0]] = "autoIncrement"
			}
		}
	}
	for _, n := range order {
		t.Keys = append(t.Keys, *groups[n])
	}
	return t
}

// gormSettings parses a gorm tag ("column:x;uniqueIndex:idx_a,where:...;not null") into its
// settings by upper-cased name, as GORM's schema.ParseTagSetting does.
func gormSettings(tag string) map[string]string {
	out := map[string]string{}
	for _, part := range strings.Split(tag, ";") {
		k, v, _ := strings.Cut(part, ":")
		k = strings.ToUpper(strings.TrimSpace(k))
		if k != "" {
			out[k] = strings.TrimSpace(v)
		}
	}
	return out
}

// bunModel is the table a bun model declares (a struct embedding bun.BaseModel or with bun
// tags), or nil; named reports whether a table: tag names it. Its keys are the pk fields
// (one primary key) and the unique fields (unique:group makes a key of several).
func bunModel(typeName string, st *ast.StructType, pos func(token.Pos) Pos) (*Table, bool) {
	isModel := false
	name := ""
	for _, f := range st.Fields.List {
		tag := tagValue(f, "bun")
		if tag != "" {
			isModel = true
		}
		if len(f.Names) == 0 && isSel(f.Type, "bun", "BaseModel") {
			isModel = true
			for _, o := range strings.Split(tag, ",") {
				if ok, v := cutFold(o, "table:"); ok {
					name = normName(v)
				}
			}
		}
	}
	if !isModel {
		return nil, false
	}
	t := &Table{Name: name, At: pos(st.Pos()), Fresh: map[string]string{}}
	if name == "" {
		t.Name = Plural(SnakeCase(typeName))
	}
	var primary []string
	var primaryAt token.Pos
	groups := map[string]*Key{}
	var order []string
	for _, f := range st.Fields.List {
		tag := tagValue(f, "bun")
		if tag == "-" || len(f.Names) == 0 {
			continue
		}
		opts := strings.Split(tag, ",")
		for _, n := range f.Names {
			if !n.IsExported() {
				continue
			}
			col := SnakeCase(n.Name)
			if c := strings.TrimSpace(opts[0]); c != "" && !strings.Contains(c, ":") {
				col = normColumn(c)
			}
			for _, o := range opts[1:] {
				o = strings.TrimSpace(o)
				switch lo := strings.ToLower(o); {
				case lo == "pk":
					primary = append(primary, col)
					primaryAt = f.Pos()
				case lo == "autoincrement", lo == "identity":
					t.Fresh[col] = lo
				case lo == "unique" || strings.HasPrefix(lo, "unique:"):
					g := t.Name + "_" + col + "_key"
					if _, v, ok := strings.Cut(o, ":"); ok && v != "" {
						g = v
					}
					if k := groups[g]; k != nil {
						k.Columns = append(k.Columns, col)
						continue
					}
					groups[g] = &Key{Name: g, Columns: []string{col}, At: pos(f.Pos())}
					order = append(order, g)
				case strings.HasPrefix(lo, "default:"):
					def := strings.TrimSpace(o[len("default:"):])
					if fresh := freshDefault(strings.ToLower(strings.TrimSuffix(def, "()")), strings.HasSuffix(def, ")")); fresh != "" {
						t.Fresh[col] = fresh
					}
				}
			}
		}
	}
	if len(primary) > 0 {
		t.Keys = append(t.Keys, Key{Name: t.Name + "_pkey", Columns: primary, Primary: true, At: pos(primaryAt)})
	}
	for _, g := range order {
		t.Keys = append(t.Keys, *groups[g])
	}
	return t, name != ""
}

// entSchemas reads ent schemas: a type embedding ent.Schema, its Fields (field.X("name")
// with .Unique()), Indexes (index.Fields(...).Unique(), with entsql.IndexWhere a partial
// one; an index over edges is left out, its columns are not spelled) and an entsql
// Annotation's Table. ent adds an auto-incremented id unless a field named id replaces it;
// such a field with a Default (uuid.New) is made anew on every create too.
func (s *Schema) entSchemas(f *ast.File, pos func(token.Pos) Pos) {
	tables := map[string]*Table{}
	var names []string
	for _, ts := range structTypes(f) {
		for _, fl := range ts.Type.(*ast.StructType).Fields.List {
			if len(fl.Names) == 0 && isSel(fl.Type, "ent", "Schema") {
				t := &Table{Name: Plural(SnakeCase(ts.Name.Name)), At: pos(ts.Pos()), Fresh: map[string]string{"id": "autoIncrement"}}
				t.Keys = []Key{{Name: t.Name + "_pkey", Columns: []string{"id"}, Primary: true, At: pos(ts.Pos())}}
				tables[ts.Name.Name] = t
				names = append(names, ts.Name.Name)
			}
		}
	}
	named := map[string]bool{}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil || tables[receiverName(fd)] == nil {
			continue
		}
		t := tables[receiverName(fd)]
		switch fd.Name.Name {
		case "Fields":
			for _, c := range chainsIn(fd.Body) {
				if len(c) == 0 || !isSel(c[0].Fun, "field", "") || len(c[0].Args) == 0 {
					continue
				}
				col, _, ok := constText(c[0].Args[0])
				if !ok {
					continue
				}
				col = normColumn(col)
				if sk := hasCall(c, "StorageKey"); sk != nil && len(sk.Args) == 1 {
					if k, _, ok := constText(sk.Args[0]); ok {
						col = normColumn(k)
					}
				}
				if col == "id" {
					delete(t.Fresh, "id")
					if hasCall(c, "Default") != nil || hasCall(c, "DefaultFunc") != nil {
						t.Fresh["id"] = "a default made on every create"
					}
					continue
				}
				if hasCall(c, "Unique") != nil {
					t.Keys = append(t.Keys, Key{Name: t.Name + "_" + col + "_key", Columns: []string{col}, At: pos(c[0].Pos())})
				}
			}
		case "Indexes":
			for _, c := range chainsIn(fd.Body) {
				if len(c) == 0 || !isSel(c[0].Fun, "index", "Fields") || hasCall(c, "Unique") == nil || hasCall(c, "Edges") != nil {
					continue
				}
				var cols []string
				for _, a := range c[0].Args {
					if col, _, ok := constText(a); ok {
						cols = append(cols, normColumn(col))
					}
				}
				k := Key{Columns: cols, Index: true, At: pos(c[0].Pos())}
				k.Name = t.Name + "_" + strings.Join(cols, "_")
				ast.Inspect(&ast.BlockStmt{List: []ast.Stmt{&ast.ExprStmt{X: c[len(c)-1]}}}, func(n ast.Node) bool {
					if call, ok := n.(*ast.CallExpr); ok && isSel(call.Fun, "entsql", "IndexWhere") && len(call.Args) == 1 {
						k.Partial, _, _ = constText(call.Args[0])
					}
					return true
				})
				if len(cols) == len(c[0].Args) && len(cols) > 0 {
					t.Keys = append(t.Keys, k)
				}
			}
		case "Annotations":
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				lit, ok := n.(*ast.CompositeLit)
				if !ok || !isSel(lit.Type, "entsql", "Annotation") {
					return true
				}
				for _, e := range lit.Elts {
					if kv, ok := e.(*ast.KeyValueExpr); ok && isIdent(kv.Key, "Table") {
						if v, _, ok := constText(kv.Value); ok && v != "" {
							old := t.Name
							t.Name = normName(v)
							for i := range t.Keys {
								t.Keys[i].Name = t.Name + strings.TrimPrefix(t.Keys[i].Name, old)
							}
							named[receiverName(fd)] = true
						}
					}
				}
				return true
			})
		}
	}
	for _, n := range names {
		s.orm = append(s.orm, ormTable{t: tables[n], typeName: n, byName: !named[n]})
	}
}

// chainsIn returns the method chains in body, each from its first call to its last
// (field.String("email").Unique().Optional(): [String, Unique, Optional]), outermost only.
func chainsIn(body *ast.BlockStmt) [][]*ast.CallExpr {
	var out [][]*ast.CallExpr
	ast.Inspect(body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		var chain []*ast.CallExpr
		for c := call; c != nil; {
			chain = append([]*ast.CallExpr{c}, chain...)
			sel, ok := c.Fun.(*ast.SelectorExpr)
			if !ok {
				break
			}
			c, _ = sel.X.(*ast.CallExpr)
		}
		out = append(out, chain)
		for _, c := range chain {
			for _, a := range c.Args {
				ast.Inspect(a, func(n ast.Node) bool {
					if inner, ok := n.(*ast.CallExpr); ok {
						out = append(out, chainsIn(&ast.BlockStmt{List: []ast.Stmt{&ast.ExprStmt{X: inner}}})...)
						return false
					}
					return true
				})
			}
		}
		return false
	})
	return out
}

// hasCall returns the call of the method name in a chain, or nil.
func hasCall(chain []*ast.CallExpr, name string) *ast.CallExpr {
	for _, c := range chain[1:] {
		if sel, ok := c.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == name {
			return c
		}
	}
	return nil
}

// isSel reports whether e is pkg.name (any name when name is "").
func isSel(e ast.Expr, pkg, name string) bool {
	sel, ok := e.(*ast.SelectorExpr)
	return ok && isIdent(sel.X, pkg) && (name == "" || sel.Sel.Name == name)
}

func tagValue(f *ast.Field, key string) string {
	if f.Tag == nil {
		return ""
	}
	tag, err := strconv.Unquote(f.Tag.Value)
	if err != nil {
		return ""
	}
	return reflect.StructTag(tag).Get(key)
}

func isIntType(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	return ok && (strings.HasPrefix(id.Name, "int") || strings.HasPrefix(id.Name, "uint"))
}

// cutFold cuts prefix from s, case-insensitively.
func cutFold(s, prefix string) (bool, string) {
	s = strings.TrimSpace(s)
	if len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix) {
		return true, s[len(prefix):]
	}
	return false, ""
}

// addORM adds the ORM models' tables the SQL files do not declare, once every file is
// read; a TableName method names a model's table wherever it was read.
func (s *Schema) addORM() {
	for _, o := range s.orm {
		if n, ok := s.tableNames[typeKey(o.dir, o.typeName)]; ok && o.byName {
			o.t.Name = n
			for i := range o.t.Keys {
				if o.t.Keys[i].Primary {
					o.t.Keys[i].Name = n + "_pkey"
				}
			}
		}
		s.modelTables[typeKey(o.dir, o.typeName)] = o.t.Name
		noteByName(s.modelTables, o.typeName, o.t.Name)
		if s.tables[o.t.Name] == nil {
			s.tables[o.t.Name] = o.t
			for _, k := range o.t.Keys {
				if k.Index {
					s.indexes[k.Name] = o.t.Name
				}
			}
		}
	}
	s.orm = nil
}

// noteByName records table as what m says of the type name, or "" when m says another
// table already: two types of that name name two tables, and the name alone says neither.
func noteByName(m map[string]string, name, table string) {
	if n, seen := m[name]; seen && n != table {
		m[name] = ""
	} else {
		m[name] = table
	}
}

// SnakeCase is a Go name as the ORMs name its column or table: ExternalID external_id,
// HTTPStatus http_status, OrderItem order_item.
func SnakeCase(name string) string {
	var b strings.Builder
	rs := []rune(name)
	for i, r := range rs {
		upper := 'A' <= r && r <= 'Z'
		if upper && i > 0 {
			prev := rs[i-1]
			prevLower := 'a' <= prev && prev <= 'z' || '0' <= prev && prev <= '9'
			nextLower := i+1 < len(rs) && 'a' <= rs[i+1] && rs[i+1] <= 'z'
			prevUpper := 'A' <= prev && prev <= 'Z'
			if prevLower || prevUpper && nextLower {
				b.WriteByte('_')
			}
		}
		if upper {
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// The words Plural does not make by its rules.
var (
	irregular   = map[string]string{"person": "people", "child": "children", "man": "men", "woman": "women", "mouse": "mice", "datum": "data", "medium": "media"}
	uncountable = map[string]bool{"equipment": true, "information": true, "rice": true, "money": true, "species": true, "series": true, "fish": true, "sheep": true, "jeans": true, "police": true}
)

// Plural is the English plural the ORMs give a table name, by the rules of the inflection
// package GORM and bun use (order_item order_items, category categories, status statuses,
// address addresses, settings settings, person people): the common rules, not every one.
func Plural(name string) string {
	head, word := "", name
	if i := strings.LastIndexByte(name, '_'); i >= 0 {
		head, word = name[:i+1], name[i+1:]
	}
	has := func(suffixes ...string) bool {
		for _, x := range suffixes {
			if strings.HasSuffix(word, x) {
				return true
			}
		}
		return false
	}
	switch {
	case irregular[word] != "":
		return head + irregular[word]
	case uncountable[word]:
		return name
	case has("x", "ch", "ss", "sh", "alias", "status") || word == "bus":
		return name + "es"
	case has("sis"):
		return name[:len(name)-2] + "es"
	case has("s"):
		return name // already a plural (settings)
	case len(word) > 1 && has("y") && !strings.ContainsRune("aeiou", rune(word[len(word)-2])):
		return name[:len(name)-1] + "ies"
	}
	return name + "s"
}

// ModelTable is the table an ORM writes a record of the named struct type to (GORM's
// Create(&v), bun's Model(&v)), declared in directory dir ("" when not known), or nil when
// the schema does not declare it: a bun table: tag on the struct's embedded BaseModel, the
// table of the model the schema read in that directory, its TableName method there, else
// those of the one model or method of that name (none when two of them name different
// tables), else the ORMs' default (Plural(SnakeCase(name))).
func (s *Schema) ModelTable(name, dir string, st *types.Struct) *Table {
	if s == nil {
		return nil
	}
	for i := range st.NumFields() {
		f := st.Field(i)
		if !f.Embedded() || f.Name() != "BaseModel" {
			continue
		}
		for _, o := range strings.Split(reflect.StructTag(st.Tag(i)).Get("bun"), ",") {
			if ok, v := cutFold(o, "table:"); ok {
				return s.Table(v)
			}
		}
	}
	if dir != "" {
		if n, ok := s.modelTables[typeKey(dir, name)]; ok {
			return s.Table(n)
		}
		if n, ok := s.tableNames[typeKey(dir, name)]; ok {
			return s.Table(n)
		}
	}
	for _, m := range []map[string]string{s.modelTables, s.tableNames} {
		if n, ok := m[name]; ok {
			if n == "" {
				return nil // two types of that name, two tables: not guessed
			}
			return s.Table(n)
		}
	}
	return s.Table(Plural(SnakeCase(name)))
}

// FieldColumn is the column field i of a model struct writes: a gorm column: setting, the
// name a bun tag starts with, else the field's name in snake case; "" for a field the ORMs
// leave out (tagged "-", unexported).
func FieldColumn(st *types.Struct, i int) string {
	f := st.Field(i)
	tag := reflect.StructTag(st.Tag(i))
	if !f.Exported() || tag.Get("gorm") == "-" || tag.Get("bun") == "-" {
		return ""
	}
	if c := gormSettings(tag.Get("gorm"))["COLUMN"]; c != "" {
		return normColumn(c)
	}
	if c, _, _ := strings.Cut(tag.Get("bun"), ","); c != "" && !strings.Contains(c, ":") {
		return normColumn(c)
	}
	return SnakeCase(f.Name())
}
